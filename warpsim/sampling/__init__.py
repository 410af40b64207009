"""Sampled simulation (issue 17): kernel-level reuse of measured launches and intra-kernel
projection from the first CTA waves, outside the timing engine (docs/sampling.md)."""

from warpsim.sampling.options import ENV_VAR, SampleOptions, parse_sample, resolve_sample

__all__ = ["ENV_VAR", "SampleOptions", "parse_sample", "resolve_sample"]
