"""Hand-written PTX micro-kernels for the sampling tests (no CUDA compiler needed)."""

SPIN_PTX = """
.version 7.0
.target sm_80
.address_size 64

.visible .entry spin(.param .u32 spin_param_0)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;

	ld.param.u32 	%r1, [spin_param_0];
	mov.u32 	%r2, 0;
$L__loop:
	add.s32 	%r2, %r2, 1;
	setp.lt.u32 	%p1, %r2, %r1;
	@%p1 bra 	$L__loop;
	ret;
}
"""
"""Every CTA loops ``n`` times on ALU work alone: identical, independent CTAs."""

SCALE_PTX = """
.version 7.0
.target sm_80
.address_size 64

.visible .entry scale(.param .u64 scale_param_0, .param .u32 scale_param_1)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<5>;

	ld.param.u64 	%rd1, [scale_param_0];
	ld.param.u32 	%r2, [scale_param_1];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__end;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.s32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.u32 	%r6, [%rd4];
	mul.lo.s32 	%r7, %r6, 3;
	st.global.u32 	[%rd4], %r7;
$L__end:
	ret;
}
"""
"""``a[i] *= 3`` for ``i < n``: loads and stores (lines, value entries) in the trace."""
