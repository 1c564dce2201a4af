"""00 fundamentals style: scalars, vectors, matrices, tensors, dtypes, matmul, aggregation, reshaping."""

import numpy as np
import torch

print(torch.__version__[:1].isdigit())

# Scalars, vectors, MATRIX, TENSOR
scalar = torch.tensor(7)
print(scalar, scalar.ndim, scalar.item(), type(scalar.item()))
vector = torch.tensor([7, 7])
print(vector, vector.ndim, vector.shape)
MATRIX = torch.tensor([[7, 8], [9, 10]])
print(MATRIX, MATRIX.ndim, MATRIX[1], MATRIX.shape)
TENSOR = torch.tensor([[[1, 2, 3], [3, 6, 9], [2, 4, 5]]])
print(TENSOR, TENSOR.ndim, TENSOR.shape, TENSOR.size(), TENSOR.size(1))

# Random tensors
torch.manual_seed(42)
random_tensor = torch.rand(3, 4)
print(random_tensor, random_tensor.dtype)
random_image_size_tensor = torch.rand(size=(224, 224, 3))
print(random_image_size_tensor.shape, random_image_size_tensor.ndim)

zeros = torch.zeros(size=(3, 4))
ones = torch.ones(size=(3, 4))
print(zeros, zeros.dtype, ones * random_tensor)

zero_to_ten = torch.arange(start=0, end=10, step=1)
print(zero_to_ten, torch.arange(1, 11, 3), torch.arange(0.0, 1.0, 0.25))
ten_zeros = torch.zeros_like(input=zero_to_ten)
print(ten_zeros, torch.ones_like(zero_to_ten), torch.full_like(zero_to_ten, 3))
print(torch.linspace(0, 1, steps=5), torch.logspace(0, 2, steps=3))
print(torch.eye(3), torch.full((2, 3), 3.5), torch.empty(2, 2).shape)

# dtypes
float_32_tensor = torch.tensor([3.0, 6.0, 9.0], dtype=None, device=None, requires_grad=False)
print(float_32_tensor.shape, float_32_tensor.dtype, float_32_tensor.device)
float_16_tensor = torch.tensor([3.0, 6.0, 9.0], dtype=torch.float16)
print(float_16_tensor, float_16_tensor.dtype)
print(float_16_tensor * float_32_tensor, (float_16_tensor * float_32_tensor).dtype)
int_32_tensor = torch.tensor([3, 6, 9], dtype=torch.int32)
print(int_32_tensor * float_32_tensor, int_32_tensor.dtype)
long_t = torch.tensor([3, 6, 9], dtype=torch.long)
print(long_t.dtype, long_t.type(torch.float32), long_t.to(torch.float64), long_t.half().dtype)
print(torch.tensor([True, False]).dtype, torch.tensor([1, 0]).bool(), torch.tensor(3.7).int())
print(float_32_tensor.type(), long_t.type())

# Info
some_tensor = torch.rand(3, 4)
print(f"Shape of tensor: {some_tensor.shape}")
print(f"Datatype of tensor: {some_tensor.dtype}")
print(f"Device tensor is stored on: {some_tensor.device}")

# Operations
tensor = torch.tensor([1, 2, 3])
print(tensor + 10, tensor * 10, tensor - 10, tensor / 2, tensor // 2, tensor % 2, tensor**2)
print(torch.multiply(tensor, 10), torch.add(tensor, 1), torch.sub(tensor, 1), torch.div(tensor, 3))
print(tensor * tensor, torch.matmul(tensor, tensor), tensor @ tensor, torch.dot(tensor, tensor))
print(torch.div(tensor, 2, rounding_mode="floor"), torch.div(-tensor, 2, rounding_mode="trunc"))

tensor_A = torch.tensor([[1, 2], [3, 4], [5, 6]], dtype=torch.float32)
tensor_B = torch.tensor([[7, 10], [8, 11], [9, 12]], dtype=torch.float32)
try:
    torch.matmul(tensor_A, tensor_B)
except RuntimeError as e:
    print("RuntimeError:", e)
print(tensor_B.T, tensor_B.T.shape)
print(f"Original shapes: tensor_A = {tensor_A.shape}, tensor_B = {tensor_B.shape}")
output = torch.matmul(tensor_A, tensor_B.T)
print(output, f"Output shape: {output.shape}")
print(torch.mm(tensor_A, tensor_B.mT), tensor_A.t().contiguous().is_contiguous())

torch.manual_seed(42)
linear = torch.nn.Linear(in_features=2, out_features=6)
x = tensor_A
out = linear(x)
print(f"Input shape: {x.shape}\n")
print(f"Output:\n{out}\n\nOutput shape: {out.shape}")

# Aggregation
x = torch.arange(0, 100, 10)
print(x, x.min(), x.max(), x.type(torch.float32).mean(), x.sum(), x.float().std(), x.float().var())
try:
    x.mean()
except RuntimeError as e:
    print("mean on long:", e)
print(torch.max(x), torch.min(x), x.argmax(), x.argmin(), x.float().median(), x.prod())
print(f"Index where max value occurs: {x.argmax()}")
print(x.cumsum(0), x.float().cumprod(0)[:3], torch.amax(x), x.float().norm())

# Reshaping, stacking, squeezing, unsqueezing
x = torch.arange(1.0, 8.0)
print(x, x.shape)
try:
    x.reshape(1, 8)
except RuntimeError as e:
    print(e)
x_reshaped = x.reshape(1, 7)
print(x_reshaped, x_reshaped.shape)
z = x.view(1, 7)
z[:, 0] = 5
print(z, x)
x_stacked = torch.stack([x, x, x, x], dim=0)
print(x_stacked)
print(torch.stack([x, x], dim=1), torch.vstack([x, x]).shape, torch.hstack([x, x]).shape)
print(torch.cat([x_reshaped, x_reshaped], dim=0).shape)
print(f"Previous tensor: {x_reshaped}")
print(f"Previous shape: {x_reshaped.shape}")
x_squeezed = x_reshaped.squeeze()
print(f"\nNew tensor: {x_squeezed}")
print(f"New shape: {x_squeezed.shape}")
x_unsqueezed = x_squeezed.unsqueeze(dim=0)
print(f"New shape: {x_unsqueezed.shape}", x_squeezed.unsqueeze(-1).shape)
x_original = torch.rand(size=(224, 224, 3))
x_permuted = x_original.permute(2, 0, 1)
print(f"Previous shape: {x_original.shape}")
print(f"New shape: {x_permuted.shape}")
x_original[0, 0, 0] = 728218
print(x_original[0, 0, 0], x_permuted[0, 0, 0])
print(x_original.flatten().shape, x_original.flatten(start_dim=1).shape, x_permuted.is_contiguous())

# Indexing
x = torch.arange(1, 10).reshape(1, 3, 3)
print(x, x.shape)
print(f"First square bracket:\n{x[0]}")
print(f"Second square bracket: {x[0][0]}")
print(f"Third square bracket: {x[0][0][0]}")
print(x[:, 0], x[:, :, 1], x[:, 1, 1], x[0, 0, :], x[0, :, 2], x[..., -1], x[0, ::2, ::2])
print(x[x > 4], x[0, [0, 2]], x[0, torch.tensor([2, 1]), torch.tensor([0, 0])])
print(torch.where(x > 5, x, torch.zeros_like(x)))

# NumPy
array = np.arange(1.0, 8.0)
tensor = torch.from_numpy(array)
print(array, tensor, tensor.dtype)
array = array + 1
print(array, tensor)
tensor = torch.ones(7)
numpy_tensor = tensor.numpy()
print(tensor, numpy_tensor, numpy_tensor.dtype)
print(torch.as_tensor(np.array([1, 2, 3], dtype=np.int32)).dtype, torch.tensor(np.float32(2.5)))

# Reproducibility
torch.manual_seed(42)
random_tensor_A = torch.rand(3, 4)
torch.manual_seed(42)
random_tensor_B = torch.rand(3, 4)
print(random_tensor_A == random_tensor_B, torch.equal(random_tensor_A, random_tensor_B))
print(torch.allclose(random_tensor_A, random_tensor_B + 1e-9))

device = "cuda" if torch.cuda.is_available() else "cpu"
print(device, torch.cuda.device_count())
tensor_on_gpu = torch.tensor([1, 2, 3]).to(device)
print(tensor_on_gpu, tensor_on_gpu.cpu().numpy())
