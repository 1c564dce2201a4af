"""04 custom datasets style: a folder of images written by the script, a Dataset subclass, transforms, TinyVGG."""

import os
import random
from pathlib import Path

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset, random_split

torch.manual_seed(0)
random.seed(0)
data_path = Path("data/")
image_path = data_path / "pizza_steak_sushi"
classes_to_make = ["pizza", "steak", "sushi"]
for split, n in [("train", 8), ("test", 3)]:
    for ci, c in enumerate(classes_to_make):
        d = image_path / split / c
        d.mkdir(parents=True, exist_ok=True)
        for k in range(n):
            img = torch.rand(3, 20, 20) * 0.5
            img[ci] += 0.5
            torch.save(img, d / f"{k}.pt")


def walk_through_dir(dir_path):
    for dirpath, dirnames, filenames in sorted(os.walk(dir_path)):
        print(
            f"There are {len(sorted(dirnames))} directories and {len(filenames)} images in '{dirpath}'."
        )


walk_through_dir(image_path)
train_dir = image_path / "train"
test_dir = image_path / "test"
image_path_list = sorted(image_path.glob("*/*/*.pt"))
random_image_path = random.choice(image_path_list)
image_class = random_image_path.parent.stem
img = torch.load(random_image_path)
print(f"Random image path: {random_image_path}")
print(f"Image class: {image_class}")
print(f"Image height: {img.shape[1]}, width: {img.shape[2]}, dtype {img.dtype}")
img_as_hwc = img.permute(1, 2, 0)
print(img_as_hwc.shape, img_as_hwc.min(), img_as_hwc.max())


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, x):
        for t in self.transforms:
            x = t(x)
        return x

    def __repr__(self):
        return "Compose(" + ", ".join(type(t).__name__ for t in self.transforms) + ")"


class Resize:
    def __init__(self, size):
        self.size = size

    def __call__(self, x):
        return torch.nn.functional.interpolate(
            x.unsqueeze(0), size=self.size, mode="bilinear", align_corners=False
        ).squeeze(0)


class RandomHorizontalFlip:
    def __init__(self, p=0.5):
        self.p = p

    def __call__(self, x):
        if torch.rand(1).item() < self.p:
            return torch.flip(x, dims=[-1])
        return x


class TrivialAugment:
    def __call__(self, x):
        op = torch.randint(0, 3, (1,)).item()
        if op == 0:
            return (x * 1.2).clamp(0, 1)
        if op == 1:
            return torch.rot90(x, 1, dims=(1, 2))
        return x


data_transform = Compose([Resize((16, 16)), RandomHorizontalFlip(p=0.5)])
print(data_transform)
t = data_transform(img)
print(t.shape, t.dtype)


def find_classes(directory: str) -> tuple[list[str], dict[str, int]]:
    classes = sorted(entry.name for entry in os.scandir(directory) if entry.is_dir())
    if not classes:
        raise FileNotFoundError(f"Couldn't find any classes in {directory}.")
    class_to_idx = {cls_name: i for i, cls_name in enumerate(classes)}
    return classes, class_to_idx


print(find_classes(train_dir))
try:
    find_classes(data_path / "pizza_steak_sushi" / "train" / "pizza")
except FileNotFoundError as e:
    print("FileNotFoundError:", str(e).split(" in ")[0])


class ImageFolderCustom(Dataset):
    def __init__(self, targ_dir: str, transform=None) -> None:
        self.paths = sorted(Path(targ_dir).glob("*/*.pt"))
        self.transform = transform
        self.classes, self.class_to_idx = find_classes(targ_dir)

    def load_image(self, index: int) -> torch.Tensor:
        return torch.load(self.paths[index], weights_only=True)

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, index: int) -> tuple[torch.Tensor, int]:
        img = self.load_image(index)
        class_name = self.paths[index].parent.name
        class_idx = self.class_to_idx[class_name]
        if self.transform:
            return self.transform(img), class_idx
        return img, class_idx


train_transforms = Compose([Resize((16, 16)), TrivialAugment(), RandomHorizontalFlip()])
test_transforms = Compose([Resize((16, 16))])
train_data_custom = ImageFolderCustom(targ_dir=train_dir, transform=train_transforms)
test_data_custom = ImageFolderCustom(targ_dir=test_dir, transform=test_transforms)
print(
    len(train_data_custom),
    len(test_data_custom),
    train_data_custom.classes,
    train_data_custom.class_to_idx,
)
img0, label0 = train_data_custom[0]
print(img0.shape, label0, type(label0))

BATCH_SIZE = 4
train_dataloader_custom = DataLoader(
    dataset=train_data_custom, batch_size=BATCH_SIZE, num_workers=0, shuffle=True
)
test_dataloader_custom = DataLoader(
    dataset=test_data_custom, batch_size=BATCH_SIZE, num_workers=0, shuffle=False
)
img_custom, label_custom = next(iter(train_dataloader_custom))
print(f"Image shape: {img_custom.shape} -> [batch_size, color_channels, height, width]")
print(f"Label shape: {label_custom.shape}, {label_custom.dtype}")
print(len(train_dataloader_custom), len(test_dataloader_custom))

g = torch.Generator().manual_seed(42)
train_subset, val_subset = random_split(train_data_custom, [18, 6], generator=g)
print(len(train_subset), len(val_subset), train_subset.indices[:5], type(train_subset).__name__)
frac_a, frac_b = random_split(range(10), [0.7, 0.3], generator=torch.Generator().manual_seed(1))
print(list(frac_a), list(frac_b))


class TinyVGG(nn.Module):
    def __init__(self, input_shape: int, hidden_units: int, output_shape: int) -> None:
        super().__init__()
        self.conv_block_1 = nn.Sequential(
            nn.Conv2d(input_shape, hidden_units, kernel_size=3, stride=1, padding=0),
            nn.ReLU(),
            nn.Conv2d(hidden_units, hidden_units, kernel_size=3, stride=1, padding=0),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
        )
        self.conv_block_2 = nn.Sequential(
            nn.Conv2d(hidden_units, hidden_units, kernel_size=3, padding=0),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Linear(in_features=hidden_units * 2 * 2, out_features=output_shape),
        )

    def forward(self, x: torch.Tensor):
        return self.classifier(self.conv_block_2(self.conv_block_1(x)))


torch.manual_seed(42)
model_0 = TinyVGG(input_shape=3, hidden_units=6, output_shape=len(train_data_custom.classes))
print(model_0)
img_single, label_single = img_custom[0].unsqueeze(dim=0), label_custom[0]
model_0.eval()
with torch.inference_mode():
    pred = model_0(img_single)
print(f"Output logits:\n{pred}\n")
print(f"Output prediction probabilities:\n{torch.softmax(pred, dim=1)}\n")
print(f"Output prediction label:\n{torch.argmax(torch.softmax(pred, dim=1), dim=1)}\n")
print(f"Actual label:\n{label_single}")

total_params = sum(p.numel() for p in model_0.parameters())
trainable = sum(p.numel() for p in model_0.parameters() if p.requires_grad)
print(f"Total params: {total_params:,} | trainable: {trainable:,}")
for name, p in model_0.named_parameters():
    print(f"{name:28s} {tuple(p.shape)}")


def train_step(model, dataloader, loss_fn, optimizer):
    model.train()
    train_loss, train_acc = 0, 0
    for batch, (X, y) in enumerate(dataloader):
        y_pred = model(X)
        loss = loss_fn(y_pred, y)
        train_loss += loss.item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        y_pred_class = torch.argmax(torch.softmax(y_pred, dim=1), dim=1)
        train_acc += (y_pred_class == y).sum().item() / len(y_pred)
    return train_loss / len(dataloader), train_acc / len(dataloader)


def test_step(model, dataloader, loss_fn):
    model.eval()
    test_loss, test_acc = 0, 0
    with torch.inference_mode():
        for batch, (X, y) in enumerate(dataloader):
            test_pred_logits = model(X)
            loss = loss_fn(test_pred_logits, y)
            test_loss += loss.item()
            test_pred_labels = test_pred_logits.argmax(dim=1)
            test_acc += (test_pred_labels == y).sum().item() / len(test_pred_labels)
    return test_loss / len(dataloader), test_acc / len(dataloader)


def train(
    model, train_dataloader, test_dataloader, optimizer, loss_fn=nn.CrossEntropyLoss(), epochs=5
):
    results = {"train_loss": [], "train_acc": [], "test_loss": [], "test_acc": []}
    for epoch in range(epochs):
        train_loss, train_acc = train_step(model, train_dataloader, loss_fn, optimizer)
        test_loss, test_acc = test_step(model, test_dataloader, loss_fn)
        print(
            f"Epoch: {epoch + 1} | train_loss: {train_loss:.4f} | train_acc: {train_acc:.4f} | "
            f"test_loss: {test_loss:.4f} | test_acc: {test_acc:.4f}"
        )
        results["train_loss"].append(train_loss)
        results["train_acc"].append(train_acc)
        results["test_loss"].append(test_loss)
        results["test_acc"].append(test_acc)
    return results


torch.manual_seed(42)
optimizer = torch.optim.Adam(params=model_0.parameters(), lr=0.01)
model_0_results = train(
    model_0, train_dataloader_custom, test_dataloader_custom, optimizer, epochs=4
)
print(model_0_results.keys(), [round(v, 4) for v in model_0_results["train_loss"]])
print(optimizer.state_dict()["state"][0]["step"], list(optimizer.state_dict()["state"][0].keys()))

custom_image = torch.rand(3, 24, 24)
custom_image_transformed = Resize((16, 16))(custom_image)
print(f"Original shape: {custom_image.shape}")
print(f"New shape: {custom_image_transformed.shape}")
model_0.eval()
with torch.inference_mode():
    try:
        model_0(custom_image_transformed.flatten())
    except RuntimeError as e:
        print("RuntimeError:", type(e).__name__)
    custom_image_pred = model_0(custom_image_transformed.unsqueeze(dim=0))
print(
    custom_image_pred,
    custom_image_pred.argmax(dim=1),
    train_data_custom.classes[custom_image_pred.argmax(dim=1).item()],
)
