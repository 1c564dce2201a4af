"""The lesson corpus (tests/corpus/scripts/) prints under autoviz what it prints under PyTorch.

Each script runs under real torch and under `autoviz.as_torch()`; outputs are compared exactly
and with every number at a relative tolerance of 1e-4 (tests/corpus/runner.py). A script may
do better than recorded here, never worse.
"""

import pytest
from corpus import runner
from hypothesis import given, settings
from hypothesis import strategies as st

# Scripts whose numbers agree within 1e-4 but not to the last digit printed: a bias that
# cancels to ~6e-8; a loss printed to 6 decimals after training through numpy's BLAS.
CLOSE = {"t26_logistic_regression", "t36_linear_regression_synthetic"}
# GELU's far tail (x = -5): PyTorch's vectorised float32 erf and a correctly rounded one
# differ by two ulps of 1 + erf, i.e. -1.19e-06 against -1.49e-06 (1e-4 tolerance: 1e-6).
CLOSE |= {"t65_uva_activation_functions"}
# A normalised batch's mean is ~1e-9: its printed sign (+0.0000 or -0.0000) is rounding's.
CLOSE |= {"t80_norms_and_activations"}
# BatchNorm2d's weight.grad after y.sum().backward() is ~1e-7 of cancellation: torch's sum
# gradient is an expanded (strided) tensor, which takes its kernel's float64 path; autoviz's
# is materialised, so it takes the vectorised float32 one (as a contiguous gradient does):
# 0.0000e+00 against -2.1235e-07 (within 1e-6, but the column width differs).
# makemore's WaveNet trains 20 steps through 32-wide float32 products (numpy's BLAS, not MKL's
# blocking): one running mean of 1.3e-4 prints -1.2863e-04 against torch's -1.2864e-04. It
# printed identically before var's gradient took PyTorch's order of operations (bit-equal to
# torch's own now), by errors that happened to cancel.
CLOSE |= {"t58_karpathy_makemore_wavenet"}
# The outside set's (t92-t110): float32 matrix products whose order of additions PyTorch's
# MKL picks per shape and memory layout (a weight gradient grad.t() @ x of 2-3 rows, Linear
# layers 9 or 17 wide): numpy's BLAS or a term-by-term sum rounds them otherwise in the last
# bit, which a loss printed to 6-7 digits after training shows (3.033398 against 3.033399).
CLOSE |= {"t92_d2l_linreg_concise", "t93_d2l_softmax_scratch", "t94_d2l_mlp_scratch"}
CLOSE |= {"t101_fastai_mnist_scratch", "t104_makemore_mlp_char", "t109_uva_intro_tensors"}
# Each prints a sum of 2,000 sines that cancels to 4e-6: PyTorch's own sine (MKL's, within 1
# ulp) differs from the correctly rounded one in 5% of the values, moving that sum by 2e-6.
DIFFERENT = {"t15_poly_manual_gradients", "t37_float32_numbers", "t44_d2l_batchnorm_scratch"}
# A CNN trained 8 Adam steps, its eval logits printed to 4 decimals: its convolutions are
# torch's bit for bit (engine/fidelity/onednn.py), its Linear(1024, 3) is MKL's product, not
# numpy's, so one logit prints 0.0958 for torch's 0.0959; torch itself prints 0.0958 under
# ATEN_CPU_CAPABILITY=default (its own kernels vary there by as much).
DIFFERENT |= {"t98_uva_cnn_bn_adam"}
# Zero to GANs' linear regression: w.grad of a 5x3 product summed by numpy's BLAS, not MKL's
# (-1622.2406 against -1622.2405).
CLOSE |= {"t134_jovian_linreg_logreg"}
# Distillation's KL at step 2 prints 0.15014 against 0.15013 after SGD's momentum.
CLOSE |= {"t156_distillation_mixup_losses"}
# A ResNet9 on random images trained three one-cycle epochs: its convolutions are oneDNN's
# order, but the input gradients of its strided 64-512-channel layers and its Linear are not,
# and one accuracy moves (FINDINGS.md).
DIFFERENT |= {"t150_jovian_resnet_onecycle"}
# Where MKL runs its AVX-512 code, its float32 tanh and its matrix-vector products (a layer one
# output wide) round otherwise than where it runs AVX2 code: these two print torch's digits on
# an AVX2 machine, and one float32 ulp apart on an AVX-512 one (d2l's weight norm after 100 SGD
# steps, 13.077554702758789 against 13.077553749084473; a micrograd-style MLP's loss). d2l's
# LeNet prints torch's digits on an Intel Xeon and, on an AMD EPYC (Zen 4, AVX-512), its loss
# after two SGD steps one digit off: 3.107740 against 3.107741 (its Linear layers' products),
# as makemore's bigram net's loss at step 10 (1.4786607027053833 against 1.4786609411239624).
CLOSE |= {"t96_d2l_weight_decay", "t103_micrograd_style", "t97_d2l_lenet_shapes"}
CLOSE |= {"t102_makemore_bigram_nn"}
# A seq2seq GRU with additive attention, trained 6 epochs: tanh's backward is torch's bit for bit
# (tests/test_torch_numbers.py), but its float32 tanh and products are not in every element,
# and the attention weights' row sums print 1.0000 for torch's, 1. for autoviz's.
CLOSE |= {"t139_seq2seq_attention"}
# The fresh set t163-t192 (a tester's, 2026-12-03): float32 and float64 last digits after
# training (micrograd's loss, an LSTM after Adam, a gradient check's relative errors, higher
# order derivatives, thermometer regression, losses, an MLP classifier)...
CLOSE |= {"t167_micrograd_neuron", "t172_rnn", "t177_cs231n_gradcheck", "t182_higher_order"}
CLOSE |= {"t184_linear_regression", "t188_losses", "t192_mlp_classification"}
# ...and an attention block whose softmax rows sum to 1 exactly here, so they print `1.`
# where torch's sums, a last bit off, print `1.0000`.
DIFFERENT |= {"t187_attention"}
# The fresh set t193-t220 (Zero to Mastery, yunjey's tutorial, CS224n, Raschka's LLM book, Raff,
# CMU 11-785, Géron; a tester's, 2026-12-03): float32 last bits after training -- a word-window
# classifier's loss at epoch 100 (0.21163234 against 0.21163236: Linear(144, 4)'s product,
# MKL's blocking), a CNN's and a BatchNorm CNN's metrics after Adam...
CLOSE |= {"t206_cs224n_word_window", "t214_raff_cnn_train_helper", "t215_geron_cnn_batchnorm_init"}
# ...a language model's softmax over 13 words, whose sum torch prints 1.0000001192092896 on
# some runs of this CPU (its vectorised exp and sum) where autoviz's is 1.0...
CLOSE |= {"t204_yunjey_language_model"}
# ...conv-bias gradients that are 0 in exact arithmetic and ~1e-8 of rounding noise in float32,
# which Adam scales to whole learning-rate steps (a BatchNorm running mean 0.0521 against
# 0.0529); Adagrad/Adamax/NAdam weights in the 8th digit (torch's float32 sqrt is not correctly
# rounded on this CPU, numpy's is)...
DIFFERENT |= {"t200_yunjey_feedforward_schedulers", "t201_yunjey_cnn_batchnorm"}
# D2L's linear regression from scratch: its loss after one epoch of minibatch SGD prints
# 4.789166 for torch's 4.789165 on an AMD EPYC (Zen 4) and torch's digits on an Intel Xeon.
CLOSE |= {"t165_linreg_scratch"}
# The fresh sets t235-t279 (EECS 498, Fleuret's course, Godoy's book; PyTorch's tutorials
# beyond the basics and probabilistic ML; Machine Learning Mastery, Persson, sentdex,
# DeepLearning.AI, Kaggle and autograd blog posts; a tester's, 2026-12-04): float32 and float64
# last bits -- MKL's products with a transposed weight (F.linear), which differ from
# numpy's by shape, torch's vectorised sin/cos/exp (Sleef, one ulp), its float32 Cholesky and
# inverse (MKL, less accurate than LAPACK's here), its BatchNorm1d, GELU's erf approximation --
# after training loops, L-BFGS, HMC and flows that amplify them...
CLOSE |= {"t238_linear_svm_softmax", "t239_two_layer_net_by_hand", "t241_dlc_autograd"}
CLOSE |= {"t242_dlc_convnet_weight_sharing", "t246_godoy_lr_finder_schedulers"}
CLOSE |= {"t252_spatial_transformer", "t254_nn_really", "t257_dqn_replay", "t258_vae_reparam"}
CLOSE |= {"t261_bayes_linreg", "t262_mixture_models", "t270_persson_cnn_custom_dataset"}
CLOSE |= {"t274_sentdex_basics", "t277_kaggle_tabular_embeddings"}
DIFFERENT |= {"t240_dlc_tensor_manipulation", "t250_dcgan_toy2d", "t256_neural_style"}
DIFFERENT |= {"t259_normalizing_flows", "t260_gp_regression", "t264_hmc_sampler"}
DIFFERENT |= {"t266_mlm_multiclass_kfold", "t267_mlm_early_stopping_checkpoint"}
DIFFERENT |= {"t276_dlai_regularisation_batchnorm"}
# ...and a blog post's `nonleaf.requires_grad = False`, which torch refuses and autoviz takes
# (requires_grad is a plain attribute, read by every op).
DIFFERENT |= {"t278_autograd_explained"}
# The fresh sets t280-t309 (NYU's, Toronto's, Stanford's, Berkeley's and UW's course notebooks;
# GeeksforGeeks, PyImageSearch, Real Python, neptune.ai and topic tutorials: SimCLR, triplets,
# a GNN, word2vec, an LSTM forecaster, NeRF's encoding, Bayes by backprop; a tester's,
# 2026-12-04): the same float32 last bits -- MKL's transposed products, vectorised sin,
# norms summed in float32, softmax row sums, GELU's erf, a BatchNorm1d backward's rounding
# noise that Adam scales up, float32 eigh and SVD from MKL's LAPACK (an eigenvector's sign)...
CLOSE |= {"t285_nyu_vae_ebm", "t286_uoft_linreg_logreg", "t288_uoft_autoencoder_attention"}
CLOSE |= {"t290_cs182_gradcheck_autograd_by_hand", "t293_uw_kernel_ridge_poly"}
CLOSE |= {"t294_uw_svd_pca_kmeans", "t297_gfg_loss_functions", "t298_gfg_optimizers_compared"}
CLOSE |= {"t299_pyimagesearch_lenet_train", "t302_neptune_init_lrfinder_clip_earlystop"}
CLOSE |= {"t303_simclr_ntxent", "t304_triplet_metric_learning", "t306_word2vec_sgns"}
CLOSE |= {"t309_bayes_backprop_mc_dropout"}
DIFFERENT |= {"t281_nyu_spiral_classification", "t283_nyu_convnets_toy_signals"}
DIFFERENT |= {"t289_cs230_train_eval_loop", "t292_cs182_transformer_block"}
DIFFERENT |= {"t300_pyimagesearch_bbox_regressor", "t305_gnn_from_scratch"}
DIFFERENT |= {"t307_lstm_sine_forecast", "t308_nerf_positional_encoding"}
LEVEL = {"identical": 3, "close": 2, "different": 1, "error": 0}


def expected(name: str) -> str:
    if name in DIFFERENT:
        return "different"
    return "close" if name in CLOSE else "identical"


@pytest.fixture(scope="module")
def verdicts():
    pytest.importorskip("torch")
    return runner.score(runner.run_all("torch"), runner.run_all("autoviz"))


def test_the_corpus_has_at_least_30_scripts():
    assert len(runner.names()) >= 30


@pytest.mark.torch
@pytest.mark.parametrize("name", runner.names())
def test_script_prints_what_pytorch_prints(verdicts, name):
    got = verdicts[name]
    assert LEVEL[got] >= LEVEL[expected(name)], f"{name}: {got}, expected {expected(name)}"


@pytest.mark.torch
def test_the_score(verdicts, capsys):
    """Every script runs; at least 90% print the same within 1e-4 (the issue's target)."""
    assert all(v != "error" for v in verdicts.values())
    close = sum(LEVEL[v] >= LEVEL["close"] for v in verdicts.values())
    assert close >= 0.9 * len(verdicts)
    with capsys.disabled():
        print("\ncorpus:", runner.summary(verdicts))


def test_varies_accepts_what_torch_prints_under_other_kernels():
    # t98's case: torch prints 0.0959 with its AVX-512 kernels, 0.0958 with its default ones.
    assert runner.varies("logit 0.0959\n", ["logit 0.0958\n"], "logit 0.0958\n")
    assert runner.varies("logit 0.0959\n", ["logit 0.0958\n"], "logit 0.0960\n")
    assert not runner.varies("logit 0.0959\n", ["logit 0.0958\n"], "logit 0.0957\n")
    assert not runner.varies("logit 0.0959\n", [], "logit 0.0958\n")
    assert not runner.varies("loss 1.5 acc 3\n", ["loss 1.4 acc 3\n"], "loss 1.4 acc 2\n")


def test_varies_reads_text_that_moves_as_one_of_torchs_variants():
    # Training that stops early at another epoch under another kernel prints another line.
    assert runner.varies("stop 3\n", ["stop 3\nepoch 4\n"], "stop 3\nepoch 4\n")
    assert not runner.varies("stop 3\n", ["stop 3\nepoch 4\n"], "stop 3\nepoch 5\n")
    assert not runner.varies("stop 3\n", ["stop 3\nepoch 4\n"], "stop 3\nlast 4\n")


def test_score_says_varies_only_past_the_tolerance():
    def results(text):
        return {"s": {"stdout": text, "error": None}}

    spread = [results("x 2.5")]
    assert runner.score(results("x 2.0"), results("x 2.4"), spread) == {"s": "varies"}
    assert runner.score(results("x 2.0"), results("x 2.00001"), spread) == {"s": "close"}
    assert runner.score(results("x 2.0"), results("x 2.6"), spread) == {"s": "different"}
    assert "3 of 3 within 1e-4 or torch's own spread" not in runner.summary({"s": "close"})
    assert "1 of 1 within 1e-4 or torch's own spread" in runner.summary({"s": "varies"})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=6), st.data())
def test_varies_accepts_any_variants_numbers(wanted, data):
    """Whatever torch prints under another kernel is within torch's spread, number by number."""
    other = [data.draw(st.floats(-1e6, 1e6, allow_nan=False)) for _ in wanted]
    text = " ".join(f"{w!r}" for w in wanted)
    peer = " ".join(f"{o!r}" for o in other)
    assert runner.varies(text, [peer], peer)
    assert runner.varies(text, [peer], text)
