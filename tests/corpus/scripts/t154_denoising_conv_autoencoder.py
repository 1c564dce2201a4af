# A denoising convolutional autoencoder: noisy inputs made with randn_like and clamp, Conv2d
# down and ConvTranspose2d up (output_padding), a sigmoid output and MSE, then the latent space
# interpolated between two codes.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(5)
clean = torch.zeros(24, 1, 8, 8)
for i in range(24):
    r, c = torch.randint(0, 5, (2,)).tolist()
    clean[i, 0, r : r + 3, c : c + 3] = 1.0
loader = DataLoader(TensorDataset(clean), batch_size=8, shuffle=True)


class Encoder(nn.Module):
    def __init__(self, latent_dim=4):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, 4, 3, stride=2, padding=1),
            nn.ReLU(True),
            nn.Conv2d(4, 8, 3, stride=2, padding=1),
            nn.ReLU(True),
        )
        self.flatten = nn.Flatten(start_dim=1)
        self.fc = nn.Linear(8 * 2 * 2, latent_dim)

    def forward(self, x):
        return self.fc(self.flatten(self.conv(x)))


class Decoder(nn.Module):
    def __init__(self, latent_dim=4):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(latent_dim, 8 * 2 * 2), nn.ReLU(True))
        self.unflatten = nn.Unflatten(dim=1, unflattened_size=(8, 2, 2))
        self.deconv = nn.Sequential(
            nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1),
            nn.BatchNorm2d(4),
            nn.ReLU(True),
            nn.ConvTranspose2d(4, 1, 3, stride=2, padding=1, output_padding=1),
        )

    def forward(self, x):
        x = self.unflatten(self.fc(x))
        return torch.sigmoid(self.deconv(x))


encoder, decoder = Encoder(), Decoder()
params_to_optimize = [{"params": encoder.parameters()}, {"params": decoder.parameters()}]
optim = torch.optim.Adam(params_to_optimize, lr=5e-3, weight_decay=1e-5)
loss_fn = torch.nn.MSELoss()
print(encoder(clean[:2]).shape, decoder(encoder(clean[:2])).shape)


def add_noise(inputs, noise_factor=0.3):
    noisy = inputs + torch.randn_like(inputs) * noise_factor
    return torch.clip(noisy, 0.0, 1.0)


def train_epoch_den(encoder, decoder, dataloader, loss_fn, optimizer, noise_factor=0.3):
    encoder.train()
    decoder.train()
    train_loss = []
    for (image_batch,) in dataloader:
        image_noisy = add_noise(image_batch, noise_factor)
        encoded_data = encoder(image_noisy)
        decoded_data = decoder(encoded_data)
        loss = loss_fn(decoded_data, image_batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train_loss.append(loss.detach().cpu().numpy())
    return float(sum(train_loss) / len(train_loss))


for epoch in range(4):
    train_loss = train_epoch_den(encoder, decoder, loader, loss_fn, optim)
    print("\n EPOCH {}/{} \t train loss {:.5f}".format(epoch + 1, 4, train_loss))

encoder.eval()
decoder.eval()
with torch.no_grad():
    codes = encoder(clean[:2])
    print(codes)
    for alpha in torch.linspace(0, 1, 3):
        z = (1 - alpha) * codes[0] + alpha * codes[1]
        img = decoder(z.unsqueeze(0))
        print(f"alpha={alpha.item():.1f}", img.mean().item() > 0, tuple(img.shape))
    rec = decoder(encoder(add_noise(clean[:1])))
    print(F.mse_loss(rec, clean[:1]).item() < 0.5, rec[0, 0, 0, :4])
print(decoder.deconv[1].running_var)
