"""Every registered mechanism conforms to the mechanism contract (docs/dev-contracts.md "How to
add a mechanism"): one declaration, a config section that is off by default, exactly the
declared hooks, prefixed statistics, and combinable with every mechanism it does not declare
a conflict with."""

from __future__ import annotations

import dataclasses

import pytest

from warpsim.arch import GTX480, GPUConfig, apply_overrides
from warpsim.errors import ConfigError
from warpsim.mechanisms import REGISTRY
from warpsim.mechanisms.base import Mechanism
from warpsim.mechanisms.compose import CompositeMechanism
from warpsim.mechanisms.hooks import COMBINE, HOOK_NAMES, Hooks, is_noop
from warpsim.mechanisms.registry import PACKAGES, mechanism_for, specs

NAMES = sorted(REGISTRY)


def _on(*names):
    return apply_overrides(GTX480, [f"{n}.enabled=true" for n in names])


def test_registry_is_built_from_the_packages_declarations():
    assert len(specs()) == len(PACKAGES) >= 2
    assert set(REGISTRY) == {s.name for s in specs().values()}


def test_every_hook_point_has_a_combination_rule():
    assert set(COMBINE) == set(Hooks._fields)
    assert HOOK_NAMES == ("compile_pass", *Hooks._fields)


@pytest.mark.parametrize("name", NAMES)
def test_config_section_is_off_by_default_and_named_for_the_mechanism(name):
    spec = REGISTRY[name]
    assert spec.config._PATH == name
    fields = {f.name: f for f in dataclasses.fields(GPUConfig)}
    assert name in fields
    assert getattr(GTX480, name).enabled is False
    assert dataclasses.is_dataclass(spec.config)
    # off means the baseline engine: no mechanism object at all
    assert mechanism_for(GTX480) is None


@pytest.mark.parametrize("name", NAMES)
def test_declared_hooks_are_exactly_the_implemented_ones(name):
    spec = REGISTRY[name]
    mech = mechanism_for(_on(name))
    assert isinstance(mech, spec.load()) and mech.name == name
    implemented = {h for h in Hooks._fields if not is_noop(h, getattr(mech.hooks, h))}
    if type(mech).compile_pass is not Mechanism.compile_pass:
        implemented.add("compile_pass")
    assert implemented == set(spec.hooks)
    assert set(spec.hooks) <= set(HOOK_NAMES)


def _compatible_groups() -> list[list[str]]:
    """Sets of mechanisms with no declared conflict that together hold every mechanism
    (greedy: each group starts from the first mechanism no earlier group holds)."""
    order = [s.name for s in specs().values()]

    def clash(a: str, b: str) -> bool:
        return b in REGISTRY[a].conflicts or a in REGISTRY[b].conflicts

    groups: list[list[str]] = []
    left = list(order)
    while left:
        group: list[str] = []
        for name in [*left, *order]:
            if name not in group and not any(clash(name, g) for g in group):
                group.append(name)
        groups.append(sorted(group, key=order.index))
        left = [n for n in left if n not in group]
    return groups


def test_conflicts_are_declared_between_registered_mechanisms_and_refused():
    pairs = [(a, b) for a in NAMES for b in REGISTRY[a].conflicts]
    assert pairs, "the register-storage mechanisms declare their conflicts"
    for a, b in pairs:
        assert b in REGISTRY and b != a
        with pytest.raises(ConfigError, match=f"{b}.enabled|{a}.enabled"):
            mechanism_for(_on(a, b))


@pytest.mark.parametrize("group", _compatible_groups(), ids=lambda g: "+".join(g))
def test_compatible_mechanisms_compose_into_one_with_every_hook_they_implement(group):
    """What the slow run below exercises, without compiling a cycle loop for it: the parts in
    registry order, and a combined hook wherever some part implements that hook point."""
    mech = mechanism_for(_on(*group))
    assert isinstance(mech, CompositeMechanism)
    assert [p.name for p in mech.parts] == group
    for hook in Hooks._fields:
        used = any(not is_noop(hook, getattr(p.hooks, hook)) for p in mech.parts)
        assert used == (not is_noop(hook, getattr(mech.hooks, hook))), hook


@pytest.mark.slow
def test_compatible_mechanisms_combine_in_one_run_with_prefixed_statistics():
    """Slow: the first compatible group's combined cycle loop is its own numba compilation
    (minutes on a 2-core machine); the composition itself is checked by the test above."""
    from warpsim.runner.jobs import Job
    from warpsim.runner.simulate import simulate

    group = _compatible_groups()[0]
    out = simulate(Job(benchmark="vector_add", size="tiny",
                       mechanisms=tuple((n, ()) for n in group)))
    assert out["verified"]
    stats = out["stats"]
    for name in group:
        prefix = REGISTRY[name].stat_prefix
        assert any(k.startswith(prefix) for k in stats), name
    # the energy model charges each enabled mechanism as a component of its own
    assert set(group) <= set(out["energy"]["dynamic_by_component"])
