"""FGSM adversarial examples against a tiny CNN trained on synthetic 8x8 'digits'."""

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(42)
epsilons = [0, 0.05, 0.1, 0.15, 0.2, 0.3]


# synthetic dataset: 3 classes of 1x8x8 images (horizontal bar, vertical bar, diagonal)
def make_data(n):
    ys = torch.randint(0, 3, (n,))
    xs = torch.rand(n, 1, 8, 8) * 0.3
    for k in range(n):
        c = ys[k].item()
        if c == 0:
            xs[k, 0, 3:5, :] += 0.7
        elif c == 1:
            xs[k, 0, :, 3:5] += 0.7
        else:
            xs[k, 0] += 0.7 * torch.eye(8)
    return xs.clamp(0, 1), ys


x_train, y_train = make_data(240)
x_test, y_test = make_data(60)
print("train", x_train.shape, y_train.shape, y_train.bincount())
print("pixel range", x_train.min().item(), x_train.max().item())


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3)
        self.conv2 = nn.Conv2d(4, 8, kernel_size=3)
        self.conv2_drop = nn.Dropout2d(p=0.2)
        self.fc1 = nn.Linear(8 * 2 * 2, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        x = F.relu(self.conv1(x))  # 4x6x6
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))  # 8x2x2
        x = x.view(-1, 8 * 2 * 2)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


model = Net()
print(model)
optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(x_train, y_train), batch_size=32, shuffle=True
)
for epoch in range(1, 6):
    model.train()
    total = 0.0
    for data, target in loader:
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        total += loss.item() * data.size(0)
    print(f"epoch {epoch} train loss {total / len(loader.dataset):.4f}")

model.eval()
with torch.no_grad():
    out = model(x_test)
    print("clean test acc", (out.argmax(1) == y_test).float().mean().item())
    print("log-probs of first 3:\n", out[:3])


def fgsm_attack(image, epsilon, data_grad):
    sign_data_grad = data_grad.sign()
    perturbed_image = image + epsilon * sign_data_grad
    perturbed_image = torch.clamp(perturbed_image, 0, 1)
    return perturbed_image


def test(model, epsilon):
    correct = 0
    adv_examples = []
    for k in range(len(x_test)):
        data = x_test[k : k + 1].clone()
        target = y_test[k : k + 1]
        data.requires_grad = True
        output = model(data)
        init_pred = output.max(1, keepdim=True)[1]
        if init_pred.item() != target.item():
            continue
        loss = F.nll_loss(output, target)
        model.zero_grad()
        loss.backward()
        data_grad = data.grad.data
        perturbed_data = fgsm_attack(data, epsilon, data_grad)
        output = model(perturbed_data)
        final_pred = output.max(1, keepdim=True)[1]
        if final_pred.item() == target.item():
            correct += 1
            if epsilon == 0 and len(adv_examples) < 2:
                adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
                adv_examples.append((init_pred.item(), final_pred.item(), adv_ex))
        else:
            if len(adv_examples) < 2:
                adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
                adv_examples.append((init_pred.item(), final_pred.item(), adv_ex))
    final_acc = correct / float(len(x_test))
    print(
        "Epsilon: {}\tTest Accuracy = {} / {} = {}".format(epsilon, correct, len(x_test), final_acc)
    )
    return final_acc, adv_examples


accuracies = []
examples = []
for eps in epsilons:
    acc, ex = test(model, eps)
    accuracies.append(acc)
    examples.append(ex)

print("accuracies", accuracies)
for eps, ex in zip(epsilons, examples):
    for orig, adv, img in ex:
        print(eps, orig, "->", adv, img.shape, round(float(img.sum()), 3))

# perturbation stats for a single batch attack
xb = x_test[:10].clone().requires_grad_(True)
loss = F.nll_loss(model(xb), y_test[:10], reduction="sum")
(g,) = torch.autograd.grad(loss, xb)
adv = fgsm_attack(xb.detach(), 0.1, g)
print(
    "grad sign counts:",
    (g.sign() == 1).sum().item(),
    (g.sign() == -1).sum().item(),
    (g == 0).sum().item(),
)
print("Linf dist", (adv - xb).abs().amax(dim=(1, 2, 3)))
print("L2 dist", torch.linalg.vector_norm((adv - xb).flatten(1), dim=1))
print("pred before", model(xb).argmax(dim=1).tolist())
print("pred after ", model(adv).argmax(dim=1).tolist())
