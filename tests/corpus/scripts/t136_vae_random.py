# A variational autoencoder: encoder to mu/logvar, the reparameterisation trick, a Bernoulli
# decoder and the ELBO (BCE summed + KL), trained a few steps on random binary "images".
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, kl_divergence
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(7)
data = (torch.rand(64, 1, 8, 8) > 0.5).float()
loader = DataLoader(TensorDataset(data), batch_size=16, shuffle=True)


class VAE(nn.Module):
    def __init__(self, input_dim=64, hidden_dim=32, latent_dim=2):
        super().__init__()
        self.fc1 = nn.Linear(input_dim, hidden_dim)
        self.fc21 = nn.Linear(hidden_dim, latent_dim)
        self.fc22 = nn.Linear(hidden_dim, latent_dim)
        self.fc3 = nn.Linear(latent_dim, hidden_dim)
        self.fc4 = nn.Linear(hidden_dim, input_dim)

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
        mu, logvar = self.encode(x.view(-1, 64))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 64), reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD, BCE, KLD


model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(1, 4):
    model.train()
    train_loss = 0
    for batch_idx, (x,) in enumerate(loader):
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(x)
        loss, bce, kld = loss_function(recon_batch, x, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
        if batch_idx % 2 == 0:
            print(
                "Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}".format(
                    epoch,
                    batch_idx * len(x),
                    len(loader.dataset),
                    100.0 * batch_idx / len(loader),
                    loss.item() / len(x),
                )
            )
    print("====> Epoch: {} Average loss: {:.4f}".format(epoch, train_loss / len(loader.dataset)))

model.eval()
with torch.no_grad():
    mu, logvar = model.encode(data[:4].view(-1, 64))
    print(mu, logvar.exp())
    sample = torch.randn(3, 2)
    sample = model.decode(sample)
    print(sample.shape, sample.view(3, 1, 8, 8)[0, 0, :2])
    z = torch.stack([torch.linspace(-2, 2, 5), torch.zeros(5)], dim=1)
    print(model.decode(z).mean(dim=1))

# the same ELBO with torch.distributions
q = Normal(mu, torch.exp(0.5 * logvar))
p = Normal(torch.zeros_like(mu), torch.ones_like(mu))
print(kl_divergence(q, p).sum(), -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()))
print(q.rsample().shape, q.log_prob(mu).sum(dim=1))
