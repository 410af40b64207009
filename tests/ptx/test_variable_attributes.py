"""``.attribute(...)`` on module variables (``__managed__``): parsed, recorded, written back."""

from __future__ import annotations

import pytest

from warpsim.errors import PTXSyntaxError
from warpsim.ptx.parser import parse_ptx
from warpsim.ptx.writer import write_ptx

_HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n"


def test_managed_attribute_is_recorded_on_the_variable():
    m = parse_ptx(_HEAD + ".global .attribute(.managed) .align 4 .u32 counter;\n"
                  ".global .attribute(.managed) .align 4 .b8 w[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
                  ".global .align 4 .u32 plain;\n")
    assert m.variables["counter"].attributes == ("managed",)
    assert m.variables["w"].attributes == ("managed",)
    assert m.variables["w"].init == bytes([1, 2, 3, 4, 5, 6, 7, 8])
    assert m.variables["plain"].attributes == ()


def test_unified_attribute_skips_its_uuid_and_round_trips():
    m = parse_ptx(_HEAD + ".global .attribute(.unified(0x12, 0x34)) .align 8 .u64 u;\n")
    assert m.variables["u"].attributes == ("unified",)
    text = write_ptx(parse_ptx(_HEAD + ".global .attribute(.managed) .align 4 .u32 c;\n"))
    assert ".global .attribute(.managed) .align 4 .u32 c;" in text
    assert parse_ptx(text).variables["c"].attributes == ("managed",)


def test_unknown_attribute_is_a_syntax_error_at_its_token():
    with pytest.raises(PTXSyntaxError, match="expected a variable attribute") as info:
        parse_ptx(_HEAD + ".global .attribute(.bogus) .u32 x;\n")
    assert info.value.line == 4
