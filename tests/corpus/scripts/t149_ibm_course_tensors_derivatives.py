# 1-D and 2-D tensors, derivatives and a Dataset class, as an online "Deep Neural Networks with
# PyTorch" course lays them out (one idea per cell, printed as it goes).
import math

import numpy as np
import torch
from torch.utils.data import Dataset

ints_to_tensor = torch.tensor([0, 1, 2, 3, 4])
print("The dtype of tensor object after converting it to tensor: ", ints_to_tensor.dtype)
print("The type of tensor object after converting it to tensor: ", ints_to_tensor.type())
floats_to_tensor = torch.tensor([0.0, 1.0, 2.0, 3.0, 4.0])
list_floats = [0.0, 1.0, 2.0, 3.0, 4.0]
floats_int_tensor = torch.tensor(list_floats, dtype=torch.int64)
print("The dtype of tensor object is: ", floats_int_tensor.dtype)
print("The type of tensor object is: ", floats_int_tensor.type())
new_float_tensor = torch.FloatTensor([0, 1, 2, 3, 4])
print("The type of the new_float_tensor:", new_float_tensor.type())
old_int_tensor = torch.tensor([0, 1, 2, 3, 4])
new_float_tensor = old_int_tensor.type(torch.FloatTensor)
print("The type of the new_float_tensor:", new_float_tensor.type())
print("The size of the new_float_tensor: ", new_float_tensor.size())
print("The dimension of the new_float_tensor: ", new_float_tensor.ndimension())
twoD_float_tensor = new_float_tensor.view(5, 1)
print("Original Size: ", new_float_tensor)
print("Size after view method", twoD_float_tensor)
numpy_array = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
new_tensor = torch.from_numpy(numpy_array)
print("The dtype of new tensor: ", new_tensor.dtype)
back_to_numpy = new_tensor.numpy()
print("The numpy array from tensor: ", back_to_numpy)
numpy_array[:] = 0
print("The new tensor points to numpy_array : ", new_tensor)
print("and back to numpy array points to the tensor: ", back_to_numpy)
this_tensor = torch.tensor([0, 1, 2, 3])
print(
    "the first item is given by",
    this_tensor[0].item(),
    "the first tensor value is given by ",
    this_tensor[0],
)
torch_to_list = this_tensor.tolist()
print("tensor:", this_tensor, "\nlist:", torch_to_list)
tensor_sample = torch.tensor([20, 1, 2, 3, 4])
tensor_sample[0] = 100
tensor_sample[4] = 0
print("Modified tensor: ", tensor_sample)
selected_indexes = [1, 3]
tensor_sample[selected_indexes] = 100000
print("Modified tensor with one value: ", tensor_sample)
math_tensor = torch.tensor([1.0, -1.0, 1, -1])
print("Tensor example: ", math_tensor)
print("The mean of math_tensor: ", math_tensor.mean())
print("The standard deviation of math_tensor: ", math_tensor.std())
print("Maximum number in the tensor: ", torch.tensor([1, 1, 3, 5, 5]).max())
pi_tensor = torch.tensor([0, np.pi / 2, np.pi])
sin = torch.sin(pi_tensor)
print("The sin result of pi_tensor: ", sin)
len_5_tensor = torch.linspace(-2, 2, steps=5)
print("First Try on linspace", len_5_tensor)
u = torch.tensor([1, 0])
v = torch.tensor([0, 1])
w = u + v
print("The result tensor: ", w)
print("Addition Result: ", u + 1)
print("The result of 2 * u: ", 2 * u)
print("The result of u * v", u * v)
print("Dot Product of u, v:", torch.dot(u, v))

twoD_list = [[11, 12, 13], [21, 22, 23], [31, 32, 33]]
A = torch.tensor(twoD_list)
print("The New 2D Tensor: ", A)
print("The dimension of twoD_tensor: ", A.ndimension())
print("The shape of twoD_tensor: ", A.shape)
print("The shape of twoD_tensor: ", A.size())
print("The number of elements in twoD_tensor: ", A.numel())
print("What is the value on 2nd-row 3rd-column? ", A[1, 2])
print("What is the value on 2nd-row 3rd-column? ", A[1][2])
print("What is the value on 1st-row first two columns? ", A[0, 0:2])
print(A[1:3, 1])
X = torch.tensor([[1, 0], [0, 1]])
Y = torch.tensor([[2, 1], [1, 2]])
print("The result of X + Y: ", X + Y)
print("The result of 2Y: ", 2 * Y)
print("The result of X * Y: ", X * Y)
A = torch.tensor([[0, 1, 1], [1, 0, 1]])
B = torch.tensor([[1, 1], [1, 1], [-1, 1]])
print("The result of A * B: ", torch.mm(A, B))

x = torch.tensor(2.0, requires_grad=True)
y = x**2
print("The result of y = x^2: ", y)
y.backward()
print("The derivative at x = 2: ", x.grad)
print("data:", x.data)
print("grad_fn:", x.grad_fn)
print("grad:", x.grad)
print("is_leaf:", x.is_leaf)
print("requires_grad:", x.requires_grad)
print("data:", y.data)
print("grad_fn:", y.grad_fn)
print("is_leaf:", y.is_leaf)
print("requires_grad:", y.requires_grad)


class SQ(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i**2
        ctx.save_for_backward(i)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (i,) = ctx.saved_tensors
        grad_output = 2 * i
        return grad_output


x = torch.tensor(2.0, requires_grad=True)
sq = SQ.apply
y = sq(x)
print(y.grad_fn)
y.backward()
print(x.grad)
u = torch.tensor(1.0, requires_grad=True)
v = torch.tensor(2.0, requires_grad=True)
f = u * v + u**2
print("The result of v * u + u^2: ", f)
f.backward()
print("The partial derivative with respect to u: ", u.grad)
print("The partial derivative with respect to u: ", v.grad)
x = torch.linspace(-10, 10, 10, requires_grad=True)
Y = x**2
y = torch.sum(x**2)
y.backward()
print(x.grad)
x = torch.linspace(-3, 3, 7, requires_grad=True)
Y = torch.relu(x)
y = Y.sum()
y.backward()
print(x.grad)


class toy_set(Dataset):
    def __init__(self, length=100, transform=None):
        self.len = length
        self.x = 2 * torch.ones(length, 2)
        self.y = torch.ones(length, 1)
        self.transform = transform

    def __getitem__(self, index):
        sample = self.x[index], self.y[index]
        if self.transform:
            sample = self.transform(sample)
        return sample

    def __len__(self):
        return self.len


class add_mult(object):
    def __init__(self, addx=1, muly=2):
        self.addx = addx
        self.muly = muly

    def __call__(self, sample):
        x = sample[0]
        y = sample[1]
        x = x + self.addx
        y = y * self.muly
        sample = x, y
        return sample


our_dataset = toy_set()
print("Our toy_set object: ", our_dataset)
print("Value on index 0 of our toy_set object: ", our_dataset[0])
print("Our toy_set length: ", len(our_dataset))
cust_data_set = toy_set(transform=add_mult())
for i in range(3):
    x, y = our_dataset[i]
    print("Index: ", i, "Original x: ", x, "Original y: ", y)
    x_, y_ = cust_data_set[i]
    print("Index: ", i, "Transformed x_:", x_, "Transformed y_:", y_)
print(math.isclose(float(cust_data_set[5][0][0]), 3.0))
