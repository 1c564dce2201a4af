""" "Graph neural networks from scratch in PyTorch": message passing with index_add_/scatter_add_, GCN layer"""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(4)

# a small graph: two communities joined by one bridge edge
edges = [(0, 1), (0, 2), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (4, 6), (6, 7), (5, 7), (1, 3)]
src = torch.tensor([u for u, v in edges] + [v for u, v in edges])
dst = torch.tensor([v for u, v in edges] + [u for u, v in edges])
edge_index = torch.stack([src, dst])
num_nodes = 8
print("edge_index:", edge_index.shape, edge_index.dtype)
print(edge_index)

# degrees via several equivalent APIs
deg_bincount = torch.bincount(dst, minlength=num_nodes)
deg_index_add = torch.zeros(num_nodes).index_add_(0, dst, torch.ones(dst.numel()))
deg_scatter = torch.zeros(num_nodes, dtype=torch.long).scatter_add_(0, dst, torch.ones_like(dst))
print("degree bincount:", deg_bincount)
print("degree index_add_:", deg_index_add)
print("degree scatter_add_:", deg_scatter)
deg_sr = torch.zeros(num_nodes).scatter_reduce(0, dst, torch.ones(dst.numel()), reduce="sum")
print("degree scatter_reduce sum:", deg_sr)

# dense adjacency and symmetric normalisation
A = torch.zeros(num_nodes, num_nodes)
A[edge_index[0], edge_index[1]] = 1.0
print("A symmetric:", torch.equal(A, A.T), "nnz:", int(A.sum()))
A_hat = A + torch.eye(num_nodes)
d = A_hat.sum(1)
D_inv_sqrt = torch.diag(d.pow(-0.5))
A_norm = D_inv_sqrt @ A_hat @ D_inv_sqrt
print("normalised adjacency row 0:", A_norm[0])
evals = torch.linalg.eigvalsh(A_norm)
print("eigenvalues of A_norm:", evals)
L = torch.diag(A.sum(1)) - A
lev, lvec = torch.linalg.eigh(L)
print("laplacian eigenvalues:", lev)
fiedler = lvec[:, 1]
print("fiedler sign partition:", (fiedler > 0).long())

# node features and labels
X = torch.randn(num_nodes, 5)
y = torch.tensor([0, 0, 0, 0, 1, 1, 1, 1])
train_mask = torch.tensor([True, False, False, False, False, False, False, True])
print("features:", X.shape, "train nodes:", train_mask.nonzero().flatten())


# message passing primitives
def propagate_sum(x, edge_index):
    s, t = edge_index
    out = torch.zeros_like(x)
    out.index_add_(0, t, x[s])
    return out


def propagate_mean_scatter(x, edge_index):
    s, t = edge_index
    out = torch.zeros_like(x).scatter_add_(0, t.unsqueeze(1).expand(-1, x.size(1)), x[s])
    cnt = torch.zeros(x.size(0)).scatter_add_(0, t, torch.ones(t.numel())).clamp(min=1)
    return out / cnt.unsqueeze(1)


def propagate_max(x, edge_index):
    s, t = edge_index
    out = torch.full_like(x, float("-inf"))
    idx = t.unsqueeze(1).expand(-1, x.size(1))
    return out.scatter_reduce(0, idx, x[s], reduce="amax", include_self=True)


agg_sum = propagate_sum(X, edge_index)
print("sum aggregation == A @ X:", torch.allclose(agg_sum, A @ X, atol=1e-6))
agg_mean = propagate_mean_scatter(X, edge_index)
print(
    "mean aggregation == D^-1 A X:",
    torch.allclose(agg_mean, (A / A.sum(1, keepdim=True)) @ X, atol=1e-6),
)
print(
    "max aggregation node 0:",
    propagate_max(X, edge_index)[0],
    "neighbours' max:",
    X[[1, 2]].max(0).values,
)
scatter_mean_via_reduce = torch.zeros(num_nodes, 5).scatter_reduce(
    0, dst.unsqueeze(1).expand(-1, 5), X[src], reduce="mean", include_self=False
)
print("scatter_reduce mean matches:", torch.allclose(scatter_mean_via_reduce, agg_mean, atol=1e-6))


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_dim))

    def forward(self, x, edge_index):
        n = x.size(0)
        loops = torch.arange(n)
        s = torch.cat([edge_index[0], loops])
        t = torch.cat([edge_index[1], loops])
        deg = torch.zeros(n).index_add_(0, t, torch.ones(t.numel()))
        norm = deg[s].rsqrt() * deg[t].rsqrt()
        h = self.lin(x)
        msg = h[s] * norm.unsqueeze(-1)
        out = torch.zeros(n, h.size(1)).index_add(0, t, msg)
        return out + self.bias


layer = GCNLayer(5, 3)
out_mp = layer(X, edge_index)
out_dense = A_norm @ layer.lin(X) + layer.bias
print("GCN message passing == dense:", torch.allclose(out_mp, out_dense, atol=1e-5))
print("GCN out:", out_mp)


class GCN(nn.Module):
    def __init__(self, in_dim, hid, n_cls):
        super().__init__()
        self.g1 = GCNLayer(in_dim, hid)
        self.g2 = GCNLayer(hid, n_cls)
        self.dropout = nn.Dropout(0.3)

    def forward(self, x, ei):
        h = F.relu(self.g1(x, ei))
        h = self.dropout(h)
        return self.g2(h, ei), h


model = GCN(5, 8, 2)
opt = torch.optim.Adam(model.parameters(), lr=0.05, weight_decay=5e-4)
for epoch in range(60):
    model.train()
    logits, _ = model(X, edge_index)
    loss = F.cross_entropy(logits[train_mask], y[train_mask])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        model.eval()
        with torch.no_grad():
            pred = model(X, edge_index)[0].argmax(1)
        acc = (pred[~train_mask] == y[~train_mask]).float().mean()
        print(
            f"epoch {epoch:2d} loss {loss.item():.5f} test acc {acc.item():.4f} pred {pred.tolist()}"
        )

model.eval()
with torch.no_grad():
    logits, hidden = model(X, edge_index)
    probs = logits.softmax(-1)
print("final probs:", probs)
print("hidden embedding shape:", hidden.shape)

# graph-level readout with batch vector (two graphs batched)
batch = torch.tensor([0, 0, 0, 0, 1, 1, 1, 1])
pooled_sum = torch.zeros(2, hidden.size(1)).index_add_(0, batch, hidden)
counts = torch.bincount(batch).unsqueeze(1)
print("global mean pool:", pooled_sum / counts)
pooled_max = torch.full((2, hidden.size(1)), float("-inf")).scatter_reduce(
    0, batch.unsqueeze(1).expand_as(hidden), hidden, reduce="amax"
)
print("global max pool:", pooled_max)
segment_softmax_num = (logits[:, 0] - logits[:, 0].max()).exp()
den = torch.zeros(2).index_add_(0, batch, segment_softmax_num)
print("segment softmax:", segment_softmax_num / den[batch])

# GAT-style attention coefficients on edges
att = nn.Linear(2 * 3, 1, bias=False)
h = layer.lin(X)
e = F.leaky_relu(att(torch.cat([h[src], h[dst]], dim=1)).squeeze(-1), 0.2)
e_exp = (e - e.max()).exp()
den = torch.zeros(num_nodes).index_add_(0, dst, e_exp)
alpha = e_exp / den[dst]
print("attention sums per node:", torch.zeros(num_nodes).index_add_(0, dst, alpha.detach()))

# errors
try:
    torch.zeros(3).index_add_(0, torch.tensor([0, 5]), torch.ones(2))
except (IndexError, RuntimeError) as e:
    print("index_add_ error:", type(e).__name__, e)
try:
    # a common bug: -1 used as a "no neighbour" marker in an edge list
    print("index_add_ with -1:", torch.zeros(3).index_add_(0, torch.tensor([0, -1]), torch.ones(2)))
except (IndexError, RuntimeError) as e:
    print("index_add_ negative index error:", type(e).__name__, e)
try:
    print(
        "scatter_add_ with -1:",
        torch.zeros(3).scatter_add_(0, torch.tensor([0, -1]), torch.ones(2)),
    )
except (IndexError, RuntimeError) as e:
    print("scatter_add_ negative index error:", type(e).__name__, e)
try:
    torch.zeros(3).scatter_add_(0, torch.tensor([0, 1]), torch.ones(2, dtype=torch.float64))
except RuntimeError as e:
    print("scatter_add_ dtype error:", e)
try:
    torch.zeros(3).scatter_reduce(0, torch.tensor([0]), torch.ones(1), reduce="median")
except RuntimeError as e:
    print("scatter_reduce error:", e)
