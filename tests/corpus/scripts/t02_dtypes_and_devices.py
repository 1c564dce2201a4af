"""dtypes, the legacy tensor types, and devices on a machine without a GPU."""

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using {device} device")
torch.set_default_device(device)
print(torch.get_default_device())

x = torch.tensor([1.7, -2.2, 3.5], device=device)
print(x.device, x.is_cuda, x.to(device).device, x.cpu() is x)
print(torch.device("cpu"), repr(torch.device("cpu")), torch.device("cpu") == x.device)

print(x.to(torch.int64), x.long(), x.int(), x.double(), x.to(torch.float64).dtype)
print(x.type(), x.long().type(), x.type(torch.DoubleTensor))
print(torch.float is torch.float32, torch.long is torch.int64, torch.double)

print(torch.Tensor([1, 2, 3]))
print(torch.Tensor(2, 3).shape)
print(torch.FloatTensor([[1, 2], [3, 4]]))
print(torch.LongTensor([1.9, 2.1]))
print(isinstance(x, torch.FloatTensor), isinstance(x.long(), torch.LongTensor))
print(torch.zeros(3, dtype=torch.float64) + torch.ones(3))
print((torch.ones(2, dtype=torch.int64) / 2).dtype, (torch.ones(2, dtype=torch.int32) * 2).dtype)

try:
    x.cuda()
except AssertionError as error:
    print("cuda():", error)
try:
    torch.device("gpu")
except RuntimeError as error:
    print("device('gpu'):", str(error)[-20:])
