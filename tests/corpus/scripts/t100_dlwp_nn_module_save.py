"""DLWP ch.6/8: nn.Module subclass, named_parameters, OrderedDict Sequential, save/load
state_dict."""

import io
from collections import OrderedDict

import torch
import torch.nn as nn

torch.manual_seed(123)
seq_model = nn.Sequential(
    OrderedDict(
        [
            ("hidden_linear", nn.Linear(1, 8)),
            ("hidden_activation", nn.Tanh()),
            ("output_linear", nn.Linear(8, 1)),
        ]
    )
)
print(seq_model)
for name, param in seq_model.named_parameters():
    print(name, param.shape)
print(seq_model.output_linear.bias)
t_u = (
    torch.tensor([35.7, 55.9, 58.2, 81.9, 56.3, 48.9, 33.9, 21.8, 48.4, 60.4, 68.4]).unsqueeze(1)
    * 0.1
)
t_c = torch.tensor([0.5, 14.0, 15.0, 28.0, 11.0, 8.0, 3.0, -4.0, 6.0, 13.0, 21.0]).unsqueeze(1)
opt = torch.optim.SGD(seq_model.parameters(), lr=1e-3)
for epoch in range(1, 501):
    loss = nn.MSELoss()(seq_model(t_u), t_c)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 100 == 0:
        print(epoch, f"{loss.item():.4f}")
print("hidden", seq_model.hidden_linear.weight.grad)


class SubclassFunctionalModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden_linear = nn.Linear(1, 14)
        self.output_linear = nn.Linear(14, 1)

    def forward(self, input):
        return self.output_linear(torch.tanh(self.hidden_linear(input)))


m = SubclassFunctionalModel()
print(m, [p.numel() for p in m.parameters()])
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
m2 = SubclassFunctionalModel()
print(m2.load_state_dict(torch.load(buf)))
print(torch.equal(m(t_u), m2(t_u)), m2.hidden_linear.bias[:3])
sd = m.state_dict()
print(list(sd.keys()), type(sd).__name__)
try:
    m2.load_state_dict({"hidden_linear.weight": torch.zeros(2, 2)})
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
