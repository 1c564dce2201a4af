"""Metric learning tutorial: TripletMarginLoss, pairwise distances, batch-hard mining"""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(21)

# synthetic 2-D-ish clusters embedded in 8-D
num_classes, per_class, dim = 4, 12, 8
centers = torch.randn(num_classes, dim) * 3
X = torch.cat([centers[c] + torch.randn(per_class, dim) for c in range(num_classes)])
Y = torch.arange(num_classes).repeat_interleave(per_class)
print("X:", X.shape, "Y:", Y[:15], Y.dtype)

# --- distance utilities ---
a = torch.tensor([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0]])
print("cdist p=2:", torch.cdist(a, a))
print("cdist p=1:", torch.cdist(a, a, p=1))
print("pdist:", torch.pdist(a))
print("pairwise_distance:", F.pairwise_distance(a, a.flip(0)))
print("pairwise_distance eps effect:", F.pairwise_distance(a, a))
print("nn.PairwiseDistance p=1:", nn.PairwiseDistance(p=1)(a, a.flip(0)))
print("cosine sim matrix:", F.cosine_similarity(a[1:, None, :], a[None, 1:, :], dim=-1))


def pairwise_sq(emb):
    dot = emb @ emb.t()
    sq = torch.diagonal(dot)
    d = sq.unsqueeze(0) - 2.0 * dot + sq.unsqueeze(1)
    return d.clamp(min=0.0)


print("sq dist via expansion:", pairwise_sq(a))

# --- TripletMarginLoss details ---
anc = torch.randn(5, 8, requires_grad=True)
pos = anc.detach() + 0.3 * torch.randn(5, 8)
neg = anc.detach() + 0.35 * torch.randn(5, 8)
for m in [0.2, 1.0, 5.0]:
    print(f"TripletMarginLoss margin={m}:", nn.TripletMarginLoss(margin=m)(anc, pos, neg).item())
print("p=1:", nn.TripletMarginLoss(p=1)(anc, pos, neg))
print("swap=True:", nn.TripletMarginLoss(swap=True)(anc, pos, neg))
print("reduction none:", nn.TripletMarginLoss(reduction="none")(anc, pos, neg))
manual = (F.pairwise_distance(anc, pos) - F.pairwise_distance(anc, neg) + 1.0).clamp(min=0).mean()
print("manual triplet:", manual)
tdl = nn.TripletMarginWithDistanceLoss(
    distance_function=lambda u, v: 1 - F.cosine_similarity(u, v), margin=0.5
)
print("TripletMarginWithDistanceLoss (cosine):", tdl(anc, pos, neg))
print("F.triplet_margin_loss:", F.triplet_margin_loss(anc, pos, neg, margin=0.3, p=2, eps=1e-6))
l = nn.TripletMarginLoss()(anc, pos, neg)
l.backward()
print("anchor grad norm:", anc.grad.norm())


# --- embedding network + batch-hard mining ---
class EmbedNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 32), nn.LeakyReLU(0.1), nn.Linear(32, 4))

    def forward(self, x):
        return F.normalize(self.net(x), p=2, dim=1)


def batch_hard_triplet(emb, labels, margin=0.3):
    d = torch.cdist(emb, emb)
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    eye = torch.eye(len(labels), dtype=torch.bool)
    pos_mask = same & ~eye
    hardest_pos = (d * pos_mask.float()).max(dim=1).values
    d_neg = d.masked_fill(same, float("inf"))
    hardest_neg = d_neg.min(dim=1).values
    loss = F.relu(hardest_pos - hardest_neg + margin)
    frac_active = (loss > 1e-8).float().mean()
    return loss.mean(), frac_active, hardest_pos, hardest_neg


def batch_all_count(labels):
    same = labels[:, None] == labels[None, :]
    eye = torch.eye(len(labels), dtype=torch.bool)
    valid = (same & ~eye).unsqueeze(2) & (~same).unsqueeze(1)
    return valid.sum()


print("valid triplets in full batch:", batch_all_count(Y))

model = EmbedNet()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)


def recall_at_1(emb, labels):
    d = torch.cdist(emb, emb)
    d.fill_diagonal_(float("inf"))
    nn_idx = d.argmin(dim=1)
    return (labels[nn_idx] == labels).float().mean().item()


with torch.no_grad():
    print("recall@1 before:", recall_at_1(model(X), Y))
for epoch in range(30):
    # P x K sampler: 2 classes x 6 samples
    cls = torch.randperm(num_classes)[:2]
    idx = torch.cat([torch.nonzero(c == Y).squeeze(1)[torch.randperm(per_class)[:6]] for c in cls])
    emb = model(X[idx])
    loss, frac, hp, hn = batch_hard_triplet(emb, Y[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        print(
            f"epoch {epoch:2d} loss {loss.item():.5f} active {frac.item():.3f} "
            f"mean d+ {hp.mean().item():.4f} mean d- {hn.mean().item():.4f}"
        )

model.eval()
with torch.no_grad():
    E = model(X)
    print("recall@1 after:", recall_at_1(E, Y))
    print("embedding norms:", E.norm(dim=1)[:4])
    centroids = torch.stack([E[c == Y].mean(0) for c in range(num_classes)])
    print("centroid distance matrix:\n", torch.cdist(centroids, centroids).round(decimals=3))
    intra = torch.stack([torch.pdist(E[c == Y]).mean() for c in range(num_classes)])
    print("intra-class mean dist:", intra)
    # retrieval: top-3 neighbours of first sample of each class
    D = torch.cdist(E, E)
    vals, inds = D.topk(4, dim=1, largest=False)
    print("top-3 neighbours of sample 0:", inds[0, 1:], "labels:", Y[inds[0, 1:]])
    print("sorted distances:", vals[0])

# error cases
try:
    nn.TripletMarginLoss()(torch.randn(3, 4), torch.randn(3, 5), torch.randn(3, 4))
except RuntimeError as e:
    print("triplet shape error:", e)
try:
    torch.cdist(torch.randn(3, 4), torch.randn(3, 5))
except RuntimeError as e:
    print("cdist error:", e)
