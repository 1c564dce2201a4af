"""What makes autoviz's numbers and text PyTorch's, apart from the autograd it shows:
`printing` (torch's tensor repr), `random` (torch's CPU generator and sampling kernels, with
`boxmuller`'s normal fill and `topk`'s tie order), `sums` (float sums in the order torch's CPU
kernel adds them) and `fma` (fused multiply-adds, as torch's vector kernels round them)."""
