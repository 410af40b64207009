"""RegLess (Kloosterman et al., MICRO-50 2017): the register file replaced by operand staging
units filled just in time, per compiler-formed region, under a capacity manager.

Follows: the paper §3 (compiler: ``kernel_view.py``, ``divergence.py`` Algorithm 2,
``regions.py`` Algorithm 1, ``lifetimes.py`` annotations and metadata, ``annotate.py`` the
pass and its staging check, ``regions_cli.py`` the ``warpsim regions`` command) and §4
(hardware); specs/regless.md. docs/mechanisms/regless.md lists what is modelled and every
assumption.
"""
