"""01 workflow style: data -> model -> loss/optimizer -> training loop -> inference -> save/load."""

from pathlib import Path

import torch
from torch import nn

weight = 0.7
bias = 0.3
start, end, step = 0, 1, 0.02
X = torch.arange(start, end, step).unsqueeze(dim=1)
y = weight * X + bias
print(X[:10], y[:10], len(X), len(y))

train_split = int(0.8 * len(X))
X_train, y_train = X[:train_split], y[:train_split]
X_test, y_test = X[train_split:], y[train_split:]
print(len(X_train), len(y_train), len(X_test), len(y_test))


class LinearRegressionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(1, dtype=torch.float), requires_grad=True)
        self.bias = nn.Parameter(torch.randn(1, dtype=torch.float), requires_grad=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.weights * x + self.bias


torch.manual_seed(42)
model_0 = LinearRegressionModel()
print(list(model_0.parameters()))
print(model_0.state_dict())
print(model_0)

with torch.inference_mode():
    y_preds = model_0(X_test)
print(f"Number of testing samples: {len(X_test)}")
print(f"Number of predictions made: {len(y_preds)}")
print(f"Predicted values:\n{y_preds}")
print(y_preds.requires_grad, y_preds.is_inference())
print(y_test - y_preds)

loss_fn = nn.L1Loss()
optimizer = torch.optim.SGD(params=model_0.parameters(), lr=0.01)
print(loss_fn, optimizer)

torch.manual_seed(42)
epochs = 100
train_loss_values, test_loss_values, epoch_count = [], [], []
for epoch in range(epochs):
    model_0.train()
    y_pred = model_0(X_train)
    loss = loss_fn(y_pred, y_train)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model_0.eval()
    with torch.inference_mode():
        test_pred = model_0(X_test)
        test_loss = loss_fn(test_pred, y_test.type(torch.float))
        if epoch % 10 == 0:
            epoch_count.append(epoch)
            train_loss_values.append(loss.detach().numpy())
            test_loss_values.append(test_loss.numpy())
            print(f"Epoch: {epoch} | MAE Train Loss: {loss} | MAE Test Loss: {test_loss} ")

print(train_loss_values[:3], test_loss_values[-1])
print("The model learned the following values for weights and bias:")
print(model_0.state_dict())
print("\nAnd the original values for weights and bias are:")
print(f"weights: {weight}, bias: {bias}")

model_0.eval()
with torch.inference_mode():
    y_preds = model_0(X_test)
print(y_preds)

MODEL_PATH = Path("models")
MODEL_PATH.mkdir(parents=True, exist_ok=True)
MODEL_NAME = "01_pytorch_workflow_model_0.pth"
MODEL_SAVE_PATH = MODEL_PATH / MODEL_NAME
print(f"Saving model to: {MODEL_SAVE_PATH}")
torch.save(obj=model_0.state_dict(), f=MODEL_SAVE_PATH)
print(MODEL_SAVE_PATH.exists(), sorted(p.name for p in MODEL_PATH.iterdir()))

loaded_model_0 = LinearRegressionModel()
print(loaded_model_0.load_state_dict(torch.load(f=MODEL_SAVE_PATH)))
loaded_model_0.eval()
with torch.inference_mode():
    loaded_model_preds = loaded_model_0(X_test)
print(y_preds == loaded_model_preds)


# Version 2: nn.Linear
class LinearRegressionModelV2(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear_layer = nn.Linear(in_features=1, out_features=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear_layer(x)


torch.manual_seed(42)
model_1 = LinearRegressionModelV2()
print(model_1, model_1.state_dict())
print(next(model_1.parameters()).device)
model_1.to("cpu")
loss_fn = nn.L1Loss()
optimizer = torch.optim.SGD(params=model_1.parameters(), lr=0.01)
for epoch in range(1000):
    model_1.train()
    y_pred = model_1(X_train)
    loss = loss_fn(y_pred, y_train)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model_1.eval()
    with torch.inference_mode():
        test_pred = model_1(X_test)
        test_loss = loss_fn(test_pred, y_test)
    if epoch % 100 == 0:
        print(f"Epoch: {epoch} | Train loss: {loss:.6f} | Test loss: {test_loss:.6f}")

from pprint import pprint

pprint(model_1.state_dict())
torch.save(model_1.state_dict(), MODEL_PATH / "model_1.pth")
loaded_model_1 = LinearRegressionModelV2()
loaded_model_1.load_state_dict(torch.load(MODEL_PATH / "model_1.pth", weights_only=True))
print(f"Loaded model:\n{loaded_model_1}")
print(f"Model on device:\n{next(loaded_model_1.parameters()).device}")
loaded_model_1.eval()
with torch.inference_mode():
    loaded_model_1_preds = loaded_model_1(X_test)
print(y_preds.shape, (test_pred == loaded_model_1_preds).all())
try:
    with torch.inference_mode():
        t = model_1(X_test)
    t.backward(torch.ones_like(t))
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.inference_mode():
    preds_inf = model_1(X_test)
print(preds_inf.is_inference(), preds_inf.requires_grad)
try:
    preds_inf += 1
except RuntimeError as e:
    print("RuntimeError:", str(e)[:70])
preds_normal = preds_inf.clone()
preds_normal += 1
print(preds_normal.is_inference(), preds_normal[:2])
torch.save(model_1, MODEL_PATH / "whole.pt")
whole = torch.load(MODEL_PATH / "whole.pt", weights_only=False)
print(type(whole).__name__, whole.linear_layer.weight)
