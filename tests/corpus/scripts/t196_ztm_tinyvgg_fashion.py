"""03 computer vision style: a FashionMNIST-like synthetic dataset, baseline, non-linear model, TinyVGG."""

from timeit import default_timer as timer

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(42)
class_names = ["T-shirt", "Trouser", "Pullover"]
N = 96


def make_images(n, size=14):
    labels = torch.randint(0, 3, (n,))
    imgs = torch.rand(n, 1, size, size) * 0.3
    for i, lab in enumerate(labels.tolist()):
        if lab == 0:
            imgs[i, 0, 2:5, :] += 0.7
        elif lab == 1:
            imgs[i, 0, :, 5:9] += 0.7
        else:
            imgs[i, 0, 4:10, 4:10] += 0.7
    return imgs.clamp(0, 1), labels


train_x, train_y = make_images(N)
test_x, test_y = make_images(32)
train_data = TensorDataset(train_x, train_y)
test_data = TensorDataset(test_x, test_y)
image, label = train_data[0]
print(image.shape, label, class_names[label])
print(len(train_data), len(test_data), train_data.tensors[0].dtype)
class_to_idx = {c: i for i, c in enumerate(class_names)}
print(class_to_idx)

BATCH_SIZE = 16
train_dataloader = DataLoader(train_data, batch_size=BATCH_SIZE, shuffle=True)
test_dataloader = DataLoader(test_data, batch_size=BATCH_SIZE, shuffle=False)
print(f"Dataloaders: {train_dataloader, test_dataloader}"[:12])
print(f"Length of train dataloader: {len(train_dataloader)} batches of {BATCH_SIZE}")
print(f"Length of test dataloader: {len(test_dataloader)} batches of {BATCH_SIZE}")
train_features_batch, train_labels_batch = next(iter(train_dataloader))
print(train_features_batch.shape, train_labels_batch.shape, train_labels_batch)

flatten_model = nn.Flatten()
x = train_features_batch[0]
output = flatten_model(x)
print(f"Shape before flattening: {x.shape} -> [color_channels, height, width]")
print(f"Shape after flattening: {output.shape} -> [color_channels, height*width]")


class FashionMNISTModelV0(nn.Module):
    def __init__(self, input_shape: int, hidden_units: int, output_shape: int):
        super().__init__()
        self.layer_stack = nn.Sequential(
            nn.Flatten(),
            nn.Linear(in_features=input_shape, out_features=hidden_units),
            nn.Linear(in_features=hidden_units, out_features=output_shape),
        )

    def forward(self, x):
        return self.layer_stack(x)


def accuracy_fn(y_true, y_pred):
    correct = torch.eq(y_true, y_pred).sum().item()
    return (correct / len(y_pred)) * 100


def print_train_time(start, end, device=None):
    total_time = end - start
    return total_time


def train_step(model, data_loader, loss_fn, optimizer, accuracy_fn):
    train_loss, train_acc = 0, 0
    model.train()
    for batch, (X, y) in enumerate(data_loader):
        y_pred = model(X)
        loss = loss_fn(y_pred, y)
        train_loss += loss
        train_acc += accuracy_fn(y_true=y, y_pred=y_pred.argmax(dim=1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    train_loss /= len(data_loader)
    train_acc /= len(data_loader)
    print(f"Train loss: {train_loss:.5f} | Train accuracy: {train_acc:.2f}%")


def test_step(data_loader, model, loss_fn, accuracy_fn):
    test_loss, test_acc = 0, 0
    model.eval()
    with torch.inference_mode():
        for X, y in data_loader:
            test_pred = model(X)
            test_loss += loss_fn(test_pred, y)
            test_acc += accuracy_fn(y_true=y, y_pred=test_pred.argmax(dim=1))
        test_loss /= len(data_loader)
        test_acc /= len(data_loader)
        print(f"Test loss: {test_loss:.5f} | Test accuracy: {test_acc:.2f}%\n")


def eval_model(model, data_loader, loss_fn, accuracy_fn):
    loss, acc = 0, 0
    model.eval()
    with torch.inference_mode():
        for X, y in data_loader:
            y_pred = model(X)
            loss += loss_fn(y_pred, y)
            acc += accuracy_fn(y_true=y, y_pred=y_pred.argmax(dim=1))
        loss /= len(data_loader)
        acc /= len(data_loader)
    return {"model_name": model.__class__.__name__, "model_loss": loss.item(), "model_acc": acc}


torch.manual_seed(42)
model_0 = FashionMNISTModelV0(input_shape=14 * 14, hidden_units=10, output_shape=len(class_names))
print(model_0)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(params=model_0.parameters(), lr=0.1)
train_time_start = timer()
for epoch in range(2):
    print(f"Epoch: {epoch}\n---------")
    train_step(model_0, train_dataloader, loss_fn, optimizer, accuracy_fn)
    test_step(test_dataloader, model_0, loss_fn, accuracy_fn)
print(print_train_time(train_time_start, timer()) > 0)
model_0_results = eval_model(model_0, test_dataloader, loss_fn, accuracy_fn)
print(model_0_results)


class FashionMNISTModelV2(nn.Module):
    """TinyVGG."""

    def __init__(self, input_shape: int, hidden_units: int, output_shape: int):
        super().__init__()
        self.block_1 = nn.Sequential(
            nn.Conv2d(
                in_channels=input_shape,
                out_channels=hidden_units,
                kernel_size=3,
                stride=1,
                padding=1,
            ),
            nn.ReLU(),
            nn.Conv2d(
                in_channels=hidden_units,
                out_channels=hidden_units,
                kernel_size=3,
                stride=1,
                padding=1,
            ),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
        )
        self.block_2 = nn.Sequential(
            nn.Conv2d(hidden_units, hidden_units, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(hidden_units, hidden_units, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Linear(in_features=hidden_units * 3 * 3, out_features=output_shape),
        )

    def forward(self, x: torch.Tensor):
        x = self.block_1(x)
        x = self.block_2(x)
        x = self.classifier(x)
        return x


torch.manual_seed(42)
model_2 = FashionMNISTModelV2(input_shape=1, hidden_units=8, output_shape=len(class_names))
print(model_2)

# Stepping through nn.Conv2d / nn.MaxPool2d
torch.manual_seed(42)
images = torch.randn(size=(32, 3, 16, 16))
test_image = images[0]
print(f"Image batch shape: {images.shape} -> [batch_size, color_channels, height, width]")
print(f"Single image shape: {test_image.shape} -> [color_channels, height, width]")
print(f"Single image pixel values:\n{test_image[0, :2, :4]}")
torch.manual_seed(42)
conv_layer = nn.Conv2d(in_channels=3, out_channels=10, kernel_size=3, stride=1, padding=0)
print(conv_layer(test_image).shape)
conv_layer_2 = nn.Conv2d(in_channels=3, out_channels=10, kernel_size=(5, 5), stride=2, padding=0)
print(conv_layer_2(test_image.unsqueeze(dim=0)).shape)
print(conv_layer_2.state_dict()["weight"].shape, conv_layer_2.state_dict()["bias"])
print(
    f"conv_layer_2 weight shape: \n{conv_layer_2.weight.shape} -> [out_channels=10, in_channels=3, kernel_size=5, kernel_size=5]"
)
max_pool_layer = nn.MaxPool2d(kernel_size=2)
test_image_through_conv = conv_layer(test_image.unsqueeze(dim=0))
print(f"Shape after going through conv_layer(): {test_image_through_conv.shape}")
test_image_through_conv_and_max_pool = max_pool_layer(test_image_through_conv)
print(
    f"Shape after going through conv_layer() and max_pool_layer(): {test_image_through_conv_and_max_pool.shape}"
)
torch.manual_seed(42)
random_tensor = torch.randn(size=(1, 1, 2, 2))
print(f"Random tensor:\n{random_tensor}")
print(f"Max pool tensor:\n{max_pool_layer(random_tensor)}")

rand_image_tensor = torch.randn(size=(1, 14, 14))
print(model_2(rand_image_tensor.unsqueeze(0)))

torch.manual_seed(42)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(params=model_2.parameters(), lr=0.1)
for epoch in range(3):
    print(f"Epoch: {epoch}\n---------")
    train_step(model_2, train_dataloader, loss_fn, optimizer, accuracy_fn)
    test_step(test_dataloader, model_2, loss_fn, accuracy_fn)
model_2_results = eval_model(model_2, test_dataloader, loss_fn, accuracy_fn)
print(model_2_results)


def make_predictions(model: torch.nn.Module, data: list):
    pred_probs = []
    model.eval()
    with torch.inference_mode():
        for sample in data:
            sample = torch.unsqueeze(sample, dim=0)
            pred_logit = model(sample)
            pred_prob = torch.softmax(pred_logit.squeeze(), dim=0)
            pred_probs.append(pred_prob.cpu())
    return torch.stack(pred_probs)


test_samples, test_labels = [], []
import random

random.seed(42)
for sample, label in random.sample(list(test_data), k=6):
    test_samples.append(sample)
    test_labels.append(label)
print(
    f"Test sample image shape: {test_samples[0].shape}\nTest sample label: {test_labels[0]} ({class_names[test_labels[0]]})"
)
pred_probs = make_predictions(model=model_2, data=test_samples)
print(pred_probs[:2])
pred_classes = pred_probs.argmax(dim=1)
print(test_labels, pred_classes)
y_preds = []
model_2.eval()
with torch.inference_mode():
    for X, y in test_dataloader:
        y_logit = model_2(X)
        y_pred = torch.softmax(y_logit, dim=1).argmax(dim=1)
        y_preds.append(y_pred.cpu())
y_pred_tensor = torch.cat(y_preds)
print(y_pred_tensor.shape, (y_pred_tensor == test_y).float().mean())
torch.save(obj=model_2.state_dict(), f="03_model_2.pth")
loaded_model_2 = FashionMNISTModelV2(input_shape=1, hidden_units=8, output_shape=3)
loaded_model_2.load_state_dict(torch.load(f="03_model_2.pth"))
loaded_model_2_results = eval_model(loaded_model_2, test_dataloader, loss_fn, accuracy_fn)
print(loaded_model_2_results)
print(
    torch.isclose(
        torch.tensor(model_2_results["model_loss"]),
        torch.tensor(loaded_model_2_results["model_loss"]),
        atol=1e-08,
        rtol=0.0001,
    )
)
