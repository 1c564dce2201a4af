"""A convolutional autoencoder, as in the unsupervised-learning chapter of most courses:
strided convolutions down to a small code, transposed convolutions back up, a sigmoid
output, MSE reconstruction loss and Adam, with the shape at every stage."""

import torch
import torch.nn as nn


class Autoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(1, 8, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.Conv2d(16, 32, 4),
        )
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(32, 16, 4),
            nn.ReLU(),
            nn.ConvTranspose2d(16, 8, 3, stride=2, padding=1, output_padding=1),
            nn.ReLU(),
            nn.ConvTranspose2d(8, 1, 3, stride=2, padding=1, output_padding=1),
            nn.Sigmoid(),
        )

    def forward(self, x):
        return self.decoder(self.encoder(x))


torch.manual_seed(21)
model = Autoencoder()
print(model)
x = torch.rand(6, 1, 16, 16)
h = x
for layer in list(model.encoder) + list(model.decoder):
    h = layer(h)
    print(f"{type(layer).__name__:16} {tuple(h.shape)}")
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-5)
for epoch in range(5):
    recon = model(x)
    loss = criterion(recon, x)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"Epoch:{epoch + 1}, Loss:{loss.item():.4f}")
with torch.no_grad():
    code = model.encoder(x)
    print(code.shape, code[0, :4, 0, 0])
    print(model(x)[0, 0, :2, :5])
print(model.decoder[0].weight.shape, model.decoder[0].weight.grad.abs().sum() > 0)
