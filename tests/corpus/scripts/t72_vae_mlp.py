"""A variational autoencoder on small binary images: the encoder's mean and log-variance,
the reparameterisation trick with randn_like, binary cross-entropy reconstruction plus the
KL divergence to the prior, and sampling new images from the decoder."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, d=36, h=24, z=2):
        super().__init__()
        self.fc1 = nn.Linear(d, h)
        self.fc21 = nn.Linear(h, z)
        self.fc22 = nn.Linear(h, z)
        self.fc3 = nn.Linear(z, h)
        self.fc4 = nn.Linear(h, d)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 36))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 36), reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD, BCE, KLD


torch.manual_seed(3)
data = (torch.rand(24, 1, 6, 6) > 0.5).float()
model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(1, 7):
    model.train()
    optimizer.zero_grad()
    recon_batch, mu, logvar = model(data)
    loss, bce, kld = loss_function(recon_batch, data, mu, logvar)
    loss.backward()
    optimizer.step()
    print(
        f"Epoch: {epoch} Average loss: {loss.item() / len(data):.4f} "
        f"(BCE {bce.item():.2f}, KLD {kld.item():.2f})"
    )
model.eval()
with torch.no_grad():
    mu, logvar = model.encode(data.view(-1, 36)[:3])
    print(mu, logvar.exp())
    sample = torch.randn(2, 2)
    sample = model.decode(sample).view(2, 1, 6, 6)
    print(sample[0, 0, :2])
print(
    F.kl_div(
        F.log_softmax(torch.randn(3, 4), 1), F.softmax(torch.randn(3, 4), 1), reduction="batchmean"
    )
)
