"""DCGAN-style adversarial training on a toy 2-D ring of Gaussians (no images)."""

import math

import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(999)
print("Random Seed: ", 999)

nz = 4  # size of the latent vector
ngf = 16  # generator width
ndf = 16  # discriminator width
batch_size = 64
num_epochs = 3
lr = 0.0002
beta1 = 0.5


def sample_ring(n, modes=8, radius=2.0, std=0.05):
    idx = torch.randint(0, modes, (n,))
    angle = idx.float() * (2 * math.pi / modes)
    centers = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    return centers + std * torch.randn(n, 2)


real = sample_ring(512)
print("real data:", real.shape, real.dtype)
print("first rows:\n", real[:4])
print("mean", real.mean(0), "std", real.std(0))


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Linear") != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
        nn.init.constant_(m.bias.data, 0)
    elif classname.find("BatchNorm") != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)


class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.main = nn.Sequential(
            nn.Linear(nz, ngf * 2, bias=True),
            nn.BatchNorm1d(ngf * 2),
            nn.ReLU(True),
            nn.Linear(ngf * 2, ngf),
            nn.BatchNorm1d(ngf),
            nn.ReLU(True),
            nn.Linear(ngf, 2),
        )

    def forward(self, input):
        return self.main(input)


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.main = nn.Sequential(
            nn.Linear(2, ndf),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(ndf, ndf * 2),
            nn.BatchNorm1d(ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(ndf * 2, 1),
            nn.Sigmoid(),
        )

    def forward(self, input):
        return self.main(input)


netG = Generator()
netG.apply(weights_init)
print(netG)
netD = Discriminator()
netD.apply(weights_init)
print(netD)
print("G params:", sum(p.numel() for p in netG.parameters()))
print("D params:", sum(p.numel() for p in netD.parameters() if p.requires_grad))
print("G bn weight[:5]", netG.main[1].weight[:5])

criterion = nn.BCELoss()
fixed_noise = torch.randn(8, nz)
real_label = 1.0
fake_label = 0.0

optimizerD = optim.Adam(netD.parameters(), lr=lr, betas=(beta1, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=lr, betas=(beta1, 0.999))
print(optimizerD)

G_losses, D_losses = [], []
iters = 0
dataset = torch.utils.data.TensorDataset(real)
dataloader = torch.utils.data.DataLoader(dataset, batch_size=batch_size, shuffle=True)
print("batches per epoch:", len(dataloader))

for epoch in range(num_epochs):
    for i, (data,) in enumerate(dataloader, 0):
        # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
        netD.zero_grad()
        b_size = data.size(0)
        label = torch.full((b_size,), real_label, dtype=torch.float)
        output = netD(data).view(-1)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()

        noise = torch.randn(b_size, nz)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach()).view(-1)
        errD_fake = criterion(output, label)
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        errD = errD_real + errD_fake
        optimizerD.step()

        # (2) Update G network: maximize log(D(G(z)))
        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake).view(-1)
        errG = criterion(output, label)
        errG.backward()
        D_G_z2 = output.mean().item()
        optimizerG.step()

        if i % 3 == 0:
            print(
                "[%d/%d][%d/%d]\tLoss_D: %.4f\tLoss_G: %.4f\tD(x): %.4f\tD(G(z)): %.4f / %.4f"
                % (
                    epoch,
                    num_epochs,
                    i,
                    len(dataloader),
                    errD.item(),
                    errG.item(),
                    D_x,
                    D_G_z1,
                    D_G_z2,
                )
            )
        G_losses.append(errG.item())
        D_losses.append(errD.item())
        iters += 1

print("iterations:", iters)
print("G loss first/last: %.5f %.5f" % (G_losses[0], G_losses[-1]))
print("D loss first/last: %.5f %.5f" % (D_losses[0], D_losses[-1]))
netG.eval()
with torch.no_grad():
    samples = netG(fixed_noise)
print("fixed-noise samples:\n", samples)
print("sample radius:", samples.norm(dim=1))
print("running_mean of G bn1:", netG.main[1].running_mean[:6])
print("num_batches_tracked:", netG.main[1].num_batches_tracked)
print(list(netG.state_dict().keys()))
# with logits
crit2 = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))
logits = torch.randn(5, 1, requires_grad=True)
tgt = torch.tensor([[1.0], [0.0], [1.0], [1.0], [0.0]])
l2 = crit2(logits, tgt)
l2.backward()
print(l2, logits.grad.squeeze())
