# A toy GAN: a generator learns to imitate samples of N(4, 1.25) against a discriminator,
# with alternating updates, detach() on fakes and BCE on logits.
import torch
import torch.nn as nn

torch.manual_seed(111)
data_mean, data_stddev = 4.0, 1.25


def get_distribution_sampler(mu, sigma):
    return lambda n: torch.randn(1, n) * sigma + mu


def get_generator_input_sampler():
    return lambda m, n: torch.rand(m, n)


class Generator(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, f):
        super(Generator, self).__init__()
        self.map1 = nn.Linear(input_size, hidden_size)
        self.map2 = nn.Linear(hidden_size, hidden_size)
        self.map3 = nn.Linear(hidden_size, output_size)
        self.f = f

    def forward(self, x):
        x = self.map1(x)
        x = self.f(x)
        x = self.map2(x)
        x = self.f(x)
        x = self.map3(x)
        return x


class Discriminator(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, f):
        super(Discriminator, self).__init__()
        self.map1 = nn.Linear(input_size, hidden_size)
        self.map2 = nn.Linear(hidden_size, hidden_size)
        self.map3 = nn.Linear(hidden_size, output_size)
        self.f = f

    def forward(self, x):
        x = self.f(self.map1(x))
        x = self.f(self.map2(x))
        return self.map3(x)


def extract(v):
    return v.data.storage().tolist()


def stats(d):
    return [
        round(float(torch.mean(torch.tensor(d))), 4),
        round(float(torch.std(torch.tensor(d))), 4),
    ]


def preprocess(data):
    return torch.cat([data, data - data.mean(), (data - data.mean()) ** 2], 0)


g_input_size, g_hidden_size, g_output_size = 1, 5, 1
d_input_size = 20
d_hidden_size, d_output_size = 10, 1
minibatch_size = d_input_size
d_sampler = get_distribution_sampler(data_mean, data_stddev)
gi_sampler = get_generator_input_sampler()
G = Generator(g_input_size, g_hidden_size, g_output_size, torch.tanh)
D = Discriminator(3 * d_input_size, d_hidden_size, d_output_size, torch.sigmoid)
criterion = nn.BCEWithLogitsLoss()
d_optimizer = torch.optim.SGD(D.parameters(), lr=1e-3, momentum=0.9)
g_optimizer = torch.optim.SGD(G.parameters(), lr=1e-3, momentum=0.9)

for epoch in range(60):
    for d_index in range(2):
        D.zero_grad()
        d_real_data = d_sampler(d_input_size)
        d_real_decision = D(preprocess(d_real_data).view(1, -1))
        d_real_error = criterion(d_real_decision, torch.ones([1, 1]))
        d_real_error.backward()
        d_gen_input = gi_sampler(minibatch_size, g_input_size)
        d_fake_data = G(d_gen_input).detach()
        d_fake_decision = D(preprocess(d_fake_data.t()).view(1, -1))
        d_fake_error = criterion(d_fake_decision, torch.zeros([1, 1]))
        d_fake_error.backward()
        d_optimizer.step()
        dre, dfe = extract(d_real_error)[0], extract(d_fake_error)[0]
    for g_index in range(2):
        G.zero_grad()
        gen_input = gi_sampler(minibatch_size, g_input_size)
        g_fake_data = G(gen_input)
        dg_fake_decision = D(preprocess(g_fake_data.t()).view(1, -1))
        g_error = criterion(dg_fake_decision, torch.ones([1, 1]))
        g_error.backward()
        g_optimizer.step()
        ge = extract(g_error)[0]
    if epoch % 20 == 0:
        print(
            "Epoch %s: D (%.5f real_err, %.5f fake_err) G (%.5f err); "
            "Real Dist (%s),  Fake Dist (%s) "
            % (epoch, dre, dfe, ge, stats(extract(d_real_data)), stats(extract(d_fake_data)))
        )

# a DCGAN-style pair of losses on one batch, with label smoothing
real_label, fake_label = 0.9, 0.0
netD = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1), nn.Sigmoid())
netG = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 2))
bce = nn.BCELoss()
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
real = torch.randn(16, 2) + torch.tensor([2.0, -1.0])
for i in range(3):
    netD.zero_grad()
    label = torch.full((16,), real_label, dtype=torch.float)
    output = netD(real).view(-1)
    errD_real = bce(output, label)
    errD_real.backward()
    D_x = output.mean().item()
    noise = torch.randn(16, 3)
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake.detach()).view(-1)
    errD_fake = bce(output, label)
    errD_fake.backward()
    D_G_z1 = output.mean().item()
    errD = errD_real + errD_fake
    optD.step()
    netG.zero_grad()
    label.fill_(1.0)
    output = netD(fake).view(-1)
    errG = bce(output, label)
    errG.backward()
    D_G_z2 = output.mean().item()
    optG.step()
    print(
        "[%d/3] Loss_D: %.4f Loss_G: %.4f D(x): %.4f D(G(z)): %.4f / %.4f"
        % (i, errD.item(), errG.item(), D_x, D_G_z1, D_G_z2)
    )
