"""A generative adversarial network on a 1-d toy distribution, the GAN lesson's loop:
generator and discriminator MLPs with LeakyReLU, BCELoss with real and fake labels, the
fake batch detached for the discriminator's step, one optimizer each."""

import torch
import torch.nn as nn

torch.manual_seed(11)
latent_dim = 4
G = nn.Sequential(nn.Linear(latent_dim, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
D = nn.Sequential(nn.Linear(1, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1), nn.Sigmoid())
print(G, D)
criterion = nn.BCELoss()
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
batch = 16
real_label, fake_label = 1.0, 0.0
for step in range(40):
    real = torch.randn(batch, 1) * 0.5 + 3.0
    noise = torch.randn(batch, latent_dim)
    fake = G(noise)
    D.zero_grad()
    label = torch.full((batch, 1), real_label)
    errD_real = criterion(D(real), label)
    errD_real.backward()
    label.fill_(fake_label)
    output = D(fake.detach())
    errD_fake = criterion(output, label)
    errD_fake.backward()
    D_G_z1 = output.mean().item()
    opt_d.step()
    G.zero_grad()
    label.fill_(real_label)
    output = D(fake)
    errG = criterion(output, label)
    errG.backward()
    opt_g.step()
    if step % 10 == 0:
        print(
            f"[{step}] Loss_D: {(errD_real + errD_fake).item():.4f} Loss_G: {errG.item():.4f} "
            f"D(G(z)): {D_G_z1:.4f} / {output.mean().item():.4f}"
        )
with torch.no_grad():
    samples = G(torch.randn(100, latent_dim))
print(f"{samples.mean().item():.4f} {samples.std().item():.4f}")
print(D[0].weight.grad is not None, G[2].bias.grad)
