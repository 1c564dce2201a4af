"""Tests of autoviz.engine.fidelity.printing: torch 2.13's tensor repr, byte for byte."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from autoviz.engine.fidelity.printing import format_tensor

# Each expected string below was printed by real torch 2.13.0 for `torch.from_numpy(array)`,
# made a leaf with `requires_grad_()` for {"requires_grad": True}, or put through a
# value-preserving op with that grad_fn (`t + 0`, `t * 1`, `t / 1`, `-(-t)`, `t.clone()`,
# `t.view(t.shape)`) for {"grad_fn": ...}.

GOLDEN = [
    pytest.param(
        np.array(3.5, dtype=np.float32),
        {},
        "tensor(3.5000)",
        id="scalar_float",
    ),
    pytest.param(
        np.array(2.0, dtype=np.float32),
        {},
        "tensor(2.)",
        id="scalar_int_float",
    ),
    pytest.param(
        np.array(7, dtype=np.int64),
        {},
        "tensor(7)",
        id="scalar_int",
    ),
    pytest.param(
        np.array(True),
        {},
        "tensor(True)",
        id="scalar_bool",
    ),
    pytest.param(
        np.array(0.1, dtype=np.float64),
        {},
        "tensor(0.1000, dtype=torch.float64)",
        id="scalar_f64",
    ),
    pytest.param(
        np.array(np.nan, dtype=np.float32),
        {},
        "tensor(nan)",
        id="scalar_nan",
    ),
    pytest.param(
        np.array(-np.inf, dtype=np.float32),
        {},
        "tensor(-inf)",
        id="scalar_neg_inf",
    ),
    pytest.param(
        np.array(0.0, dtype=np.float32),
        {},
        "tensor(0.)",
        id="scalar_zero",
    ),
    pytest.param(
        np.array(-0.0, dtype=np.float32),
        {},
        "tensor(-0.)",
        id="scalar_neg_zero",
    ),
    pytest.param(
        np.array(1e10, dtype=np.float32),
        {},
        "tensor(1.0000e+10)",
        id="scalar_big",
    ),
    pytest.param(
        np.array(1e-5, dtype=np.float32),
        {},
        "tensor(1.0000e-05)",
        id="scalar_small",
    ),
    pytest.param(
        np.array(6.0, dtype=np.float32),
        {"grad_fn": "MulBackward0"},
        "tensor(6., grad_fn=<MulBackward0>)",
        id="scalar_grad_fn",
    ),
    pytest.param(
        np.array(1.5, dtype=np.float32),
        {"requires_grad": True},
        "tensor(1.5000, requires_grad=True)",
        id="scalar_requires_grad",
    ),
    pytest.param(
        np.array([1.0, 2.5], dtype=np.float32),
        {},
        "tensor([1.0000, 2.5000])",
        id="vec_float",
    ),
    pytest.param(
        np.array([1.0, 2.0], dtype=np.float32),
        {},
        "tensor([1., 2.])",
        id="vec_int_float",
    ),
    pytest.param(
        np.array([-1.5, 2.25, 10.0], dtype=np.float32),
        {},
        "tensor([-1.5000,  2.2500, 10.0000])",
        id="vec_neg",
    ),
    pytest.param(
        np.array([-1.0, 20.0, 300.0], dtype=np.float32),
        {},
        "tensor([ -1.,  20., 300.])",
        id="vec_neg_int_float",
    ),
    pytest.param(
        np.array([0.1, 0.2, 1 / 3], dtype=np.float32),
        {},
        "tensor([0.1000, 0.2000, 0.3333])",
        id="vec_rounding",
    ),
    pytest.param(
        np.array([1.0, 2.5], dtype=np.float64),
        {},
        "tensor([1.0000, 2.5000], dtype=torch.float64)",
        id="vec_f64",
    ),
    pytest.param(
        np.array([1.0, 2.0], dtype=np.float64),
        {},
        "tensor([1., 2.], dtype=torch.float64)",
        id="vec_f64_int",
    ),
    pytest.param(
        np.array([1.0, 2.5], dtype=np.float16),
        {},
        "tensor([1.0000, 2.5000], dtype=torch.float16)",
        id="vec_f16",
    ),
    pytest.param(
        np.array([1, -20, 300], dtype=np.int64),
        {},
        "tensor([  1, -20, 300])",
        id="vec_int",
    ),
    pytest.param(
        np.array([1, 2, 3], dtype=np.int32),
        {},
        "tensor([1, 2, 3], dtype=torch.int32)",
        id="vec_int32",
    ),
    pytest.param(
        np.array([0, 255], dtype=np.uint8),
        {},
        "tensor([  0, 255], dtype=torch.uint8)",
        id="vec_uint8",
    ),
    pytest.param(
        np.array([True, False, True]),
        {},
        "tensor([ True, False,  True])",
        id="vec_bool",
    ),
    pytest.param(
        np.array([1e10, 1.0], dtype=np.float32),
        {},
        "tensor([1.0000e+10, 1.0000e+00])",
        id="vec_sci_big",
    ),
    pytest.param(
        np.array([1e-5, 1.0], dtype=np.float32),
        {},
        "tensor([1.0000e-05, 1.0000e+00])",
        id="vec_sci_small",
    ),
    pytest.param(
        np.array([0.5, 1000.0], dtype=np.float32),
        {},
        "tensor([5.0000e-01, 1.0000e+03])",
        id="vec_sci_ratio",
    ),
    pytest.param(
        np.array([1.0, 1001.0], dtype=np.float32),
        {},
        "tensor([1.0000e+00, 1.0010e+03])",
        id="vec_sci_ratio_int",
    ),
    pytest.param(
        np.array([1.0, 1000.0], dtype=np.float32),
        {},
        "tensor([   1., 1000.])",
        id="vec_no_sci_ratio",
    ),
    pytest.param(
        np.array([-1.2345e-7, 3.0, 4e9], dtype=np.float64),
        {},
        "tensor([-1.2345e-07,  3.0000e+00,  4.0000e+09], dtype=torch.float64)",
        id="vec_sci_neg",
    ),
    pytest.param(
        np.array([1e8, 2e8], dtype=np.float32),
        {},
        "tensor([1.0000e+08, 2.0000e+08])",
        id="vec_1e8",
    ),
    pytest.param(
        np.array([np.nan, np.inf, -np.inf], dtype=np.float32),
        {},
        "tensor([nan, inf, -inf])",
        id="vec_nan_inf",
    ),
    pytest.param(
        np.array([1.0, np.nan, 2.0], dtype=np.float32),
        {},
        "tensor([1., nan, 2.])",
        id="vec_nan_int",
    ),
    pytest.param(
        np.array([1.5, np.nan, -np.inf], dtype=np.float32),
        {},
        "tensor([1.5000,    nan,   -inf])",
        id="vec_nan_frac",
    ),
    pytest.param(
        np.array([1e-8, np.inf, 1.0], dtype=np.float32),
        {},
        "tensor([1.0000e-08,        inf, 1.0000e+00])",
        id="vec_inf_sci",
    ),
    pytest.param(
        np.zeros(3, dtype=np.float32),
        {},
        "tensor([0., 0., 0.])",
        id="vec_zeros",
    ),
    pytest.param(
        np.array([-0.0, 1.0], dtype=np.float32),
        {},
        "tensor([-0., 1.])",
        id="vec_neg_zero",
    ),
    pytest.param(
        np.arange(30, dtype=np.float32) / 7,
        {},
        (
            "tensor([0.0000, 0.1429, 0.2857, 0.4286, 0.5714, 0.7143, 0.8571, 1.0000, 1.1429,\n"
            "        1.2857, 1.4286, 1.5714, 1.7143, 1.8571, 2.0000, 2.1429, 2.2857, 2.4286,\n"
            "        2.5714, 2.7143, 2.8571, 3.0000, 3.1429, 3.2857, 3.4286, 3.5714, 3.7143,\n"
            "        3.8571, 4.0000, 4.1429])"
        ),
        id="vec_wrap",
    ),
    pytest.param(
        np.arange(40, dtype=np.int64) * 1000,
        {},
        (
            "tensor([    0,  1000,  2000,  3000,  4000,  5000,  6000,  7000,  8000,  9000,\n"
            "        10000, 11000, 12000, 13000, 14000, 15000, 16000, 17000, 18000, 19000,\n"
            "        20000, 21000, 22000, 23000, 24000, 25000, 26000, 27000, 28000, 29000,\n"
            "        30000, 31000, 32000, 33000, 34000, 35000, 36000, 37000, 38000, 39000])"
        ),
        id="vec_wrap_int",
    ),
    pytest.param(
        np.array([1.0, 2.0, 3.0], dtype=np.float32),
        {"requires_grad": True},
        "tensor([1., 2., 3.], requires_grad=True)",
        id="vec_requires_grad",
    ),
    pytest.param(
        np.array([0.5, -1.25], dtype=np.float32),
        {"grad_fn": "AddBackward0"},
        "tensor([ 0.5000, -1.2500], grad_fn=<AddBackward0>)",
        id="vec_grad_fn",
    ),
    pytest.param(
        np.array([1.0, 2.5], dtype=np.float64),
        {"requires_grad": True},
        "tensor([1.0000, 2.5000], dtype=torch.float64, requires_grad=True)",
        id="vec_f64_requires_grad",
    ),
    pytest.param(
        np.arange(30, dtype=np.float32) / 7,
        {"grad_fn": "DivBackward0"},
        (
            "tensor([0.0000, 0.1429, 0.2857, 0.4286, 0.5714, 0.7143, 0.8571, 1.0000, 1.1429,\n"
            "        1.2857, 1.4286, 1.5714, 1.7143, 1.8571, 2.0000, 2.1429, 2.2857, 2.4286,\n"
            "        2.5714, 2.7143, 2.8571, 3.0000, 3.1429, 3.2857, 3.4286, 3.5714, 3.7143,\n"
            "        3.8571, 4.0000, 4.1429], grad_fn=<DivBackward0>)"
        ),
        id="vec_wrap_grad_fn",
    ),
    pytest.param(
        np.linspace(-1, 1, 10).astype(np.float64),
        {"grad_fn": "NegBackward0"},
        (
            "tensor([-1.0000, -0.7778, -0.5556, -0.3333, -0.1111,  0.1111,  0.3333,  0.5556,\n"
            "         0.7778,  1.0000], dtype=torch.float64, grad_fn=<NegBackward0>)"
        ),
        id="vec_suffix_wrap",
    ),
    pytest.param(
        np.arange(12, dtype=np.float64) + 0.5,
        {"requires_grad": True},
        (
            "tensor([ 0.5000,  1.5000,  2.5000,  3.5000,  4.5000,  5.5000,  6.5000,  7.5000,\n"
            "         8.5000,  9.5000, 10.5000, 11.5000], dtype=torch.float64,\n"
            "       requires_grad=True)"
        ),
        id="vec_suffix_wrap2",
    ),
    pytest.param(
        np.array([[1.0, -2.5], [30.25, 4.0]], dtype=np.float32),
        {},
        ("tensor([[ 1.0000, -2.5000],\n        [30.2500,  4.0000]])"),
        id="mat_float",
    ),
    pytest.param(
        np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32),
        {},
        ("tensor([[1., 2., 3.],\n        [4., 5., 6.]])"),
        id="mat_int_float",
    ),
    pytest.param(
        np.array([[1, 2], [-3, 40]], dtype=np.int64),
        {},
        ("tensor([[ 1,  2],\n        [-3, 40]])"),
        id="mat_int",
    ),
    pytest.param(
        np.array([[True, False], [False, True]]),
        {},
        ("tensor([[ True, False],\n        [False,  True]])"),
        id="mat_bool",
    ),
    pytest.param(
        np.array([[1e-6, 2.0], [3.0, 4e6]], dtype=np.float32),
        {},
        ("tensor([[1.0000e-06, 2.0000e+00],\n        [3.0000e+00, 4.0000e+06]])"),
        id="mat_sci",
    ),
    pytest.param(
        np.array([[0.1, 0.2], [0.3, 0.4]], dtype=np.float64),
        {"grad_fn": "ViewBackward0"},
        (
            "tensor([[0.1000, 0.2000],\n"
            "        [0.3000, 0.4000]], dtype=torch.float64, grad_fn=<ViewBackward0>)"
        ),
        id="mat_f64_grad_fn",
    ),
    pytest.param(
        np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32),
        {"requires_grad": True},
        ("tensor([[1., 2.],\n        [3., 4.]], requires_grad=True)"),
        id="mat_requires_grad",
    ),
    pytest.param(
        np.arange(40, dtype=np.float32).reshape(2, 20) / 3,
        {},
        (
            "tensor([[ 0.0000,  0.3333,  0.6667,  1.0000,  1.3333,  1.6667,  2.0000,  2.3333,\n"
            "          2.6667,  3.0000,  3.3333,  3.6667,  4.0000,  4.3333,  4.6667,  5.0000,\n"
            "          5.3333,  5.6667,  6.0000,  6.3333],\n"
            "        [ 6.6667,  7.0000,  7.3333,  7.6667,  8.0000,  8.3333,  8.6667,  9.0000,\n"
            "          9.3333,  9.6667, 10.0000, 10.3333, 10.6667, 11.0000, 11.3333, 11.6667,\n"
            "         12.0000, 12.3333, 12.6667, 13.0000]])"
        ),
        id="mat_wide",
    ),
    pytest.param(
        np.array([[np.nan, 1.0], [2.0, -np.inf]], dtype=np.float32),
        {},
        ("tensor([[nan, 1.],\n        [2., -inf]])"),
        id="mat_nan",
    ),
    pytest.param(
        np.arange(12, dtype=np.int64).reshape(2, 2, 3),
        {},
        (
            "tensor([[[ 0,  1,  2],\n"
            "         [ 3,  4,  5]],\n"
            "\n"
            "        [[ 6,  7,  8],\n"
            "         [ 9, 10, 11]]])"
        ),
        id="tensor3",
    ),
    pytest.param(
        np.arange(8, dtype=np.float32).reshape(2, 2, 2) / 4,
        {"requires_grad": True},
        (
            "tensor([[[0.0000, 0.2500],\n"
            "         [0.5000, 0.7500]],\n"
            "\n"
            "        [[1.0000, 1.2500],\n"
            "         [1.5000, 1.7500]]], requires_grad=True)"
        ),
        id="tensor3_float",
    ),
    pytest.param(
        np.zeros(0, dtype=np.float32),
        {},
        "tensor([])",
        id="empty_float",
    ),
    pytest.param(
        np.zeros((0, 3), dtype=np.float32),
        {},
        "tensor([], size=(0, 3))",
        id="empty_2d",
    ),
    pytest.param(
        np.zeros(0, dtype=np.int64),
        {},
        "tensor([], dtype=torch.int64)",
        id="empty_int",
    ),
    pytest.param(
        np.zeros((2, 0), dtype=bool),
        {},
        "tensor([], size=(2, 0), dtype=torch.bool)",
        id="empty_bool_2d",
    ),
    pytest.param(
        np.zeros(0, dtype=np.float64),
        {},
        "tensor([], dtype=torch.float64)",
        id="empty_f64",
    ),
    pytest.param(
        np.zeros((0, 3), dtype=np.float32),
        {"requires_grad": True},
        "tensor([], size=(0, 3), requires_grad=True)",
        id="empty_requires_grad",
    ),
    pytest.param(
        np.arange(2000, dtype=np.float32),
        {},
        (
            "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n"
            "        1.9990e+03])"
        ),
        id="summ_vec_float",
    ),
    pytest.param(
        np.arange(1001, dtype=np.int64),
        {},
        "tensor([   0,    1,    2,  ...,  998,  999, 1000])",
        id="summ_vec_int",
    ),
    pytest.param(
        np.arange(1000, dtype=np.int64),
        {},
        (
            "tensor([  0,   1,   2,   3,   4,   5,   6,   7,   8,   9,  10,  11,  12,  13,\n"
            "         14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,\n"
            "         28,  29,  30,  31,  32,  33,  34,  35,  36,  37,  38,  39,  40,  41,\n"
            "         42,  43,  44,  45,  46,  47,  48,  49,  50,  51,  52,  53,  54,  55,\n"
            "         56,  57,  58,  59,  60,  61,  62,  63,  64,  65,  66,  67,  68,  69,\n"
            "         70,  71,  72,  73,  74,  75,  76,  77,  78,  79,  80,  81,  82,  83,\n"
            "         84,  85,  86,  87,  88,  89,  90,  91,  92,  93,  94,  95,  96,  97,\n"
            "         98,  99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,\n"
            "        112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125,\n"
            "        126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139,\n"
            "        140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153,\n"
            "        154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167,\n"
            "        168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181,\n"
            "        182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195,\n"
            "        196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209,\n"
            "        210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223,\n"
            "        224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237,\n"
            "        238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251,\n"
            "        252, 253, 254, 255, 256, 257, 258, 259, 260, 261, 262, 263, 264, 265,\n"
            "        266, 267, 268, 269, 270, 271, 272, 273, 274, 275, 276, 277, 278, 279,\n"
            "        280, 281, 282, 283, 284, 285, 286, 287, 288, 289, 290, 291, 292, 293,\n"
            "        294, 295, 296, 297, 298, 299, 300, 301, 302, 303, 304, 305, 306, 307,\n"
            "        308, 309, 310, 311, 312, 313, 314, 315, 316, 317, 318, 319, 320, 321,\n"
            "        322, 323, 324, 325, 326, 327, 328, 329, 330, 331, 332, 333, 334, 335,\n"
            "        336, 337, 338, 339, 340, 341, 342, 343, 344, 345, 346, 347, 348, 349,\n"
            "        350, 351, 352, 353, 354, 355, 356, 357, 358, 359, 360, 361, 362, 363,\n"
            "        364, 365, 366, 367, 368, 369, 370, 371, 372, 373, 374, 375, 376, 377,\n"
            "        378, 379, 380, 381, 382, 383, 384, 385, 386, 387, 388, 389, 390, 391,\n"
            "        392, 393, 394, 395, 396, 397, 398, 399, 400, 401, 402, 403, 404, 405,\n"
            "        406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 418, 419,\n"
            "        420, 421, 422, 423, 424, 425, 426, 427, 428, 429, 430, 431, 432, 433,\n"
            "        434, 435, 436, 437, 438, 439, 440, 441, 442, 443, 444, 445, 446, 447,\n"
            "        448, 449, 450, 451, 452, 453, 454, 455, 456, 457, 458, 459, 460, 461,\n"
            "        462, 463, 464, 465, 466, 467, 468, 469, 470, 471, 472, 473, 474, 475,\n"
            "        476, 477, 478, 479, 480, 481, 482, 483, 484, 485, 486, 487, 488, 489,\n"
            "        490, 491, 492, 493, 494, 495, 496, 497, 498, 499, 500, 501, 502, 503,\n"
            "        504, 505, 506, 507, 508, 509, 510, 511, 512, 513, 514, 515, 516, 517,\n"
            "        518, 519, 520, 521, 522, 523, 524, 525, 526, 527, 528, 529, 530, 531,\n"
            "        532, 533, 534, 535, 536, 537, 538, 539, 540, 541, 542, 543, 544, 545,\n"
            "        546, 547, 548, 549, 550, 551, 552, 553, 554, 555, 556, 557, 558, 559,\n"
            "        560, 561, 562, 563, 564, 565, 566, 567, 568, 569, 570, 571, 572, 573,\n"
            "        574, 575, 576, 577, 578, 579, 580, 581, 582, 583, 584, 585, 586, 587,\n"
            "        588, 589, 590, 591, 592, 593, 594, 595, 596, 597, 598, 599, 600, 601,\n"
            "        602, 603, 604, 605, 606, 607, 608, 609, 610, 611, 612, 613, 614, 615,\n"
            "        616, 617, 618, 619, 620, 621, 622, 623, 624, 625, 626, 627, 628, 629,\n"
            "        630, 631, 632, 633, 634, 635, 636, 637, 638, 639, 640, 641, 642, 643,\n"
            "        644, 645, 646, 647, 648, 649, 650, 651, 652, 653, 654, 655, 656, 657,\n"
            "        658, 659, 660, 661, 662, 663, 664, 665, 666, 667, 668, 669, 670, 671,\n"
            "        672, 673, 674, 675, 676, 677, 678, 679, 680, 681, 682, 683, 684, 685,\n"
            "        686, 687, 688, 689, 690, 691, 692, 693, 694, 695, 696, 697, 698, 699,\n"
            "        700, 701, 702, 703, 704, 705, 706, 707, 708, 709, 710, 711, 712, 713,\n"
            "        714, 715, 716, 717, 718, 719, 720, 721, 722, 723, 724, 725, 726, 727,\n"
            "        728, 729, 730, 731, 732, 733, 734, 735, 736, 737, 738, 739, 740, 741,\n"
            "        742, 743, 744, 745, 746, 747, 748, 749, 750, 751, 752, 753, 754, 755,\n"
            "        756, 757, 758, 759, 760, 761, 762, 763, 764, 765, 766, 767, 768, 769,\n"
            "        770, 771, 772, 773, 774, 775, 776, 777, 778, 779, 780, 781, 782, 783,\n"
            "        784, 785, 786, 787, 788, 789, 790, 791, 792, 793, 794, 795, 796, 797,\n"
            "        798, 799, 800, 801, 802, 803, 804, 805, 806, 807, 808, 809, 810, 811,\n"
            "        812, 813, 814, 815, 816, 817, 818, 819, 820, 821, 822, 823, 824, 825,\n"
            "        826, 827, 828, 829, 830, 831, 832, 833, 834, 835, 836, 837, 838, 839,\n"
            "        840, 841, 842, 843, 844, 845, 846, 847, 848, 849, 850, 851, 852, 853,\n"
            "        854, 855, 856, 857, 858, 859, 860, 861, 862, 863, 864, 865, 866, 867,\n"
            "        868, 869, 870, 871, 872, 873, 874, 875, 876, 877, 878, 879, 880, 881,\n"
            "        882, 883, 884, 885, 886, 887, 888, 889, 890, 891, 892, 893, 894, 895,\n"
            "        896, 897, 898, 899, 900, 901, 902, 903, 904, 905, 906, 907, 908, 909,\n"
            "        910, 911, 912, 913, 914, 915, 916, 917, 918, 919, 920, 921, 922, 923,\n"
            "        924, 925, 926, 927, 928, 929, 930, 931, 932, 933, 934, 935, 936, 937,\n"
            "        938, 939, 940, 941, 942, 943, 944, 945, 946, 947, 948, 949, 950, 951,\n"
            "        952, 953, 954, 955, 956, 957, 958, 959, 960, 961, 962, 963, 964, 965,\n"
            "        966, 967, 968, 969, 970, 971, 972, 973, 974, 975, 976, 977, 978, 979,\n"
            "        980, 981, 982, 983, 984, 985, 986, 987, 988, 989, 990, 991, 992, 993,\n"
            "        994, 995, 996, 997, 998, 999])"
        ),
        id="not_summ_1000",
    ),
    pytest.param(
        np.arange(2000, dtype=np.float32) / 3,
        {"requires_grad": True},
        (
            "tensor([0.0000e+00, 3.3333e-01, 6.6667e-01,  ..., 6.6567e+02, 6.6600e+02,\n"
            "        6.6633e+02], requires_grad=True)"
        ),
        id="summ_vec_frac",
    ),
    pytest.param(
        np.arange(1200, dtype=np.float32).reshape(40, 30),
        {},
        (
            "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 2.7000e+01, 2.8000e+01,\n"
            "         2.9000e+01],\n"
            "        [3.0000e+01, 3.1000e+01, 3.2000e+01,  ..., 5.7000e+01, 5.8000e+01,\n"
            "         5.9000e+01],\n"
            "        [6.0000e+01, 6.1000e+01, 6.2000e+01,  ..., 8.7000e+01, 8.8000e+01,\n"
            "         8.9000e+01],\n"
            "        ...,\n"
            "        [1.1100e+03, 1.1110e+03, 1.1120e+03,  ..., 1.1370e+03, 1.1380e+03,\n"
            "         1.1390e+03],\n"
            "        [1.1400e+03, 1.1410e+03, 1.1420e+03,  ..., 1.1670e+03, 1.1680e+03,\n"
            "         1.1690e+03],\n"
            "        [1.1700e+03, 1.1710e+03, 1.1720e+03,  ..., 1.1970e+03, 1.1980e+03,\n"
            "         1.1990e+03]])"
        ),
        id="summ_mat",
    ),
    pytest.param(
        np.arange(1100, dtype=np.int64).reshape(550, 2),
        {},
        (
            "tensor([[   0,    1],\n"
            "        [   2,    3],\n"
            "        [   4,    5],\n"
            "        ...,\n"
            "        [1094, 1095],\n"
            "        [1096, 1097],\n"
            "        [1098, 1099]])"
        ),
        id="summ_mat_narrow",
    ),
    pytest.param(
        np.arange(10000, dtype=np.float64).reshape(100, 100) * 1e-3,
        {"grad_fn": "MulBackward0"},
        (
            "tensor([[0.0000e+00, 1.0000e-03, 2.0000e-03,  ..., 9.7000e-02, 9.8000e-02,\n"
            "         9.9000e-02],\n"
            "        [1.0000e-01, 1.0100e-01, 1.0200e-01,  ..., 1.9700e-01, 1.9800e-01,\n"
            "         1.9900e-01],\n"
            "        [2.0000e-01, 2.0100e-01, 2.0200e-01,  ..., 2.9700e-01, 2.9800e-01,\n"
            "         2.9900e-01],\n"
            "        ...,\n"
            "        [9.7000e+00, 9.7010e+00, 9.7020e+00,  ..., 9.7970e+00, 9.7980e+00,\n"
            "         9.7990e+00],\n"
            "        [9.8000e+00, 9.8010e+00, 9.8020e+00,  ..., 9.8970e+00, 9.8980e+00,\n"
            "         9.8990e+00],\n"
            "        [9.9000e+00, 9.9010e+00, 9.9020e+00,  ..., 9.9970e+00, 9.9980e+00,\n"
            "         9.9990e+00]], dtype=torch.float64, grad_fn=<MulBackward0>)"
        ),
        id="summ_mat_sci",
    ),
    pytest.param(
        np.arange(2 * 10 * 60, dtype=np.int64).reshape(2, 10, 60),
        {},
        (
            "tensor([[[   0,    1,    2,  ...,   57,   58,   59],\n"
            "         [  60,   61,   62,  ...,  117,  118,  119],\n"
            "         [ 120,  121,  122,  ...,  177,  178,  179],\n"
            "         ...,\n"
            "         [ 420,  421,  422,  ...,  477,  478,  479],\n"
            "         [ 480,  481,  482,  ...,  537,  538,  539],\n"
            "         [ 540,  541,  542,  ...,  597,  598,  599]],\n"
            "\n"
            "        [[ 600,  601,  602,  ...,  657,  658,  659],\n"
            "         [ 660,  661,  662,  ...,  717,  718,  719],\n"
            "         [ 720,  721,  722,  ...,  777,  778,  779],\n"
            "         ...,\n"
            "         [1020, 1021, 1022,  ..., 1077, 1078, 1079],\n"
            "         [1080, 1081, 1082,  ..., 1137, 1138, 1139],\n"
            "         [1140, 1141, 1142,  ..., 1197, 1198, 1199]]])"
        ),
        id="summ_3d",
    ),
    pytest.param(
        np.arange(1500) % 3 == 0,
        {},
        "tensor([ True, False, False,  ...,  True, False, False])",
        id="summ_bool",
    ),
    pytest.param(
        np.concatenate([np.ones(500), [1e12], np.ones(500)]).astype(np.float32),
        {},
        "tensor([1., 1., 1.,  ..., 1., 1., 1.])",
        id="summ_hidden_big",
    ),
    pytest.param(
        np.array([65504.0, 0.001, 1e-7], dtype=np.float16),
        {},
        "tensor([6.5504e+04, 1.0004e-03, 1.1921e-07], dtype=torch.float16)",
        id="vec_f16_sci",
    ),
    pytest.param(
        np.array([-128, 0, 127], dtype=np.int8),
        {},
        "tensor([-128,    0,  127], dtype=torch.int8)",
        id="vec_int8",
    ),
    pytest.param(
        np.array([0, 2**64 - 1], dtype=np.uint64),
        {},
        "tensor([                   0, 18446744073709551615], dtype=torch.uint64)",
        id="vec_uint64",
    ),
    pytest.param(
        np.array(2**63 - 1, dtype=np.int64),
        {},
        "tensor(9223372036854775807)",
        id="scalar_int64_max",
    ),
    pytest.param(
        np.array([123456.789, 0.5], dtype=np.float64),
        {},
        "tensor([1.2346e+05, 5.0000e-01], dtype=torch.float64)",
        id="vec_float_sci_rounding",
    ),
    pytest.param(
        np.array([-100.0, 1.0, 2.0], dtype=np.float32),
        {},
        "tensor([-100.,    1.,    2.])",
        id="vec_width_from_neg",
    ),
    pytest.param(
        np.arange(17, dtype=np.float32) + 0.5,
        {"requires_grad": True},
        (
            "tensor([ 0.5000,  1.5000,  2.5000,  3.5000,  4.5000,  5.5000,  6.5000,  7.5000,\n"
            "         8.5000,  9.5000, 10.5000, 11.5000, 12.5000, 13.5000, 14.5000, 15.5000,\n"
            "        16.5000], requires_grad=True)"
        ),
        id="vec_requires_grad_wraps",
    ),
    pytest.param(
        np.arange(14, dtype=np.float32) + 0.5,
        {"grad_fn": "CloneBackward0"},
        (
            "tensor([ 0.5000,  1.5000,  2.5000,  3.5000,  4.5000,  5.5000,  6.5000,  7.5000,\n"
            "         8.5000,  9.5000, 10.5000, 11.5000, 12.5000, 13.5000],\n"
            "       grad_fn=<CloneBackward0>)"
        ),
        id="vec_grad_fn_stays",
    ),
    pytest.param(
        np.arange(60, dtype=np.float64).reshape(2, 3, 10) / 8,
        {"grad_fn": "DivBackward0"},
        (
            "tensor([[[0.0000, 0.1250, 0.2500, 0.3750, 0.5000, 0.6250, 0.7500, 0.8750,\n"
            "          1.0000, 1.1250],\n"
            "         [1.2500, 1.3750, 1.5000, 1.6250, 1.7500, 1.8750, 2.0000, 2.1250,\n"
            "          2.2500, 2.3750],\n"
            "         [2.5000, 2.6250, 2.7500, 2.8750, 3.0000, 3.1250, 3.2500, 3.3750,\n"
            "          3.5000, 3.6250]],\n"
            "\n"
            "        [[3.7500, 3.8750, 4.0000, 4.1250, 4.2500, 4.3750, 4.5000, 4.6250,\n"
            "          4.7500, 4.8750],\n"
            "         [5.0000, 5.1250, 5.2500, 5.3750, 5.5000, 5.6250, 5.7500, 5.8750,\n"
            "          6.0000, 6.1250],\n"
            "         [6.2500, 6.3750, 6.5000, 6.6250, 6.7500, 6.8750, 7.0000, 7.1250,\n"
            "          7.2500, 7.3750]]], dtype=torch.float64, grad_fn=<DivBackward0>)"
        ),
        id="tensor3_wrap",
    ),
    pytest.param(
        np.arange(16, dtype=np.int64).reshape(2, 2, 2, 2),
        {},
        (
            "tensor([[[[ 0,  1],\n"
            "          [ 2,  3]],\n"
            "\n"
            "         [[ 4,  5],\n"
            "          [ 6,  7]]],\n"
            "\n"
            "\n"
            "        [[[ 8,  9],\n"
            "          [10, 11]],\n"
            "\n"
            "         [[12, 13],\n"
            "          [14, 15]]]])"
        ),
        id="tensor4",
    ),
    pytest.param(
        np.array([[1.5, 2.0, 3.0]], dtype=np.float32),
        {},
        "tensor([[1.5000, 2.0000, 3.0000]])",
        id="single_row",
    ),
    pytest.param(
        np.array([[1], [22], [333]], dtype=np.int64),
        {},
        ("tensor([[  1],\n        [ 22],\n        [333]])"),
        id="single_col",
    ),
    pytest.param(
        np.zeros((2, 0, 3), dtype=np.int64),
        {},
        "tensor([], size=(2, 0, 3), dtype=torch.int64)",
        id="empty_3d",
    ),
]


@pytest.mark.parametrize(("array", "kwargs", "expected"), GOLDEN)
def test_matches_torch_golden_output(array, kwargs, expected):
    assert format_tensor(array, **kwargs) == expected


def test_golden_table_is_big_enough():
    assert len(GOLDEN) >= 40


def test_grad_fn_wins_over_requires_grad():
    # torch shows requires_grad=True only on leaves, which have no grad_fn
    a = np.array([1.0], dtype=np.float32)
    assert format_tensor(a, grad_fn="MulBackward0", requires_grad=True) == (
        "tensor([1.], grad_fn=<MulBackward0>)"
    )


def test_unsupported_dtype_raises():
    with pytest.raises(TypeError, match="complex128"):
        format_tensor(np.array([1j]))


# ---- parity with the installed torch, on random arrays ----

SPECIALS = st.sampled_from([0.0, -0.0, np.nan, np.inf, -np.inf])


def _float_elements(draw, width: int) -> st.SearchStrategy[float]:
    """One family of values per array, sometimes with zeros/nan/inf, so every format shows up."""
    family = draw(
        st.sampled_from(
            [
                st.floats(-100, 100, width=width),  # fixed-point, 4 decimals
                st.integers(-2048, 2048).map(float),  # integer-valued floats: `1.`
                st.floats(-(2**-10), 2**-10, width=width),  # small magnitudes: scientific
                st.floats(allow_nan=False, allow_infinity=False, width=width),  # any size
            ]
        )
    )
    return st.one_of(family, SPECIALS) if draw(st.booleans()) else family


def _elements(draw, dtype: str) -> st.SearchStrategy | None:
    if dtype.startswith("float"):
        return _float_elements(draw, np.dtype(dtype).itemsize * 8)
    return None  # hypothesis' default: any int64 / bool


@st.composite
def arrays(draw) -> np.ndarray:
    dtype = draw(st.sampled_from(["float32", "float64", "float16", "int64", "bool"]))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6))
    return draw(hnp.arrays(dtype, shape, elements=_elements(draw, dtype)))


@st.composite
def big_arrays(draw) -> np.ndarray:
    """Arrays around the 1000-element summarization threshold."""
    rows = draw(st.sampled_from([1, 2, 5, 7, 40]))
    cols = draw(st.integers(990 // rows, 1100 // rows))
    shape = draw(st.sampled_from([(rows * cols,), (rows, cols), (cols, rows)]))
    dtype = draw(st.sampled_from(["float32", "float64", "int64", "bool"]))
    return draw(hnp.arrays(dtype, shape, elements=_elements(draw, dtype)))


def _assert_same_as_torch(a: np.ndarray) -> None:
    torch = pytest.importorskip("torch")
    t = torch.from_numpy(a.copy())
    assert format_tensor(a) == repr(t)
    if a.dtype.kind == "f":
        leaf = t.requires_grad_()
        assert format_tensor(a, requires_grad=True) == repr(leaf)
        # clone keeps every value, nan and -0.0 included, so only the suffix changes
        assert format_tensor(a, grad_fn="CloneBackward0") == repr(leaf.clone())


@settings(max_examples=500, deadline=None)
@given(arrays())
def test_parity_with_torch(a):
    _assert_same_as_torch(a)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(big_arrays())
def test_parity_with_torch_summarized(a):
    _assert_same_as_torch(a)


def test_the_default_dtype_is_the_one_printed_without_a_suffix():
    """torch 2.13 after set_default_dtype(torch.float64): float32 tensors name their dtype."""
    import autoviz

    autoviz.set_default_dtype(autoviz.float64)
    try:
        assert repr(autoviz.tensor([1.5])) == "tensor([1.5000])"
        assert repr(autoviz.ones(2, dtype=autoviz.float32)) == (
            "tensor([1., 1.], dtype=torch.float32)"
        )
        assert repr(autoviz.zeros(0, dtype=autoviz.float32)) == "tensor([], dtype=torch.float32)"
        assert autoviz.nn.Linear(2, 1).weight.dtype is autoviz.float64
    finally:
        autoviz.set_default_dtype(autoviz.float32)
    assert repr(autoviz.tensor([1.5], dtype=autoviz.float64)) == (
        "tensor([1.5000], dtype=torch.float64)"
    )
