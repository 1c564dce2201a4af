# A graph convolutional network written with dense and scatter operations: self-loops, the
# symmetric normalisation D^-1/2 (A + I) D^-1/2, message passing with index_add_, and
# semi-supervised node classification on a small two-community graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
edges = [(0, 1), (0, 2), (1, 2), (2, 3), (3, 4), (4, 5), (4, 6), (5, 6), (1, 3), (5, 7), (6, 7)]
edge_index = torch.tensor(edges, dtype=torch.long).t()
edge_index = torch.cat([edge_index, edge_index.flip(0)], dim=1)
num_nodes = 8
print(edge_index.shape, edge_index[:, :4])

A = torch.zeros(num_nodes, num_nodes)
A[edge_index[0], edge_index[1]] = 1.0
A_hat = A + torch.eye(num_nodes)
deg = A_hat.sum(dim=1)
D_inv_sqrt = torch.diag(deg.pow(-0.5))
A_norm = D_inv_sqrt @ A_hat @ D_inv_sqrt
print(deg, A_norm[0])
print(torch.allclose(A_norm, A_norm.T))


def propagate(x, edge_index, num_nodes):
    loops = torch.arange(num_nodes).repeat(2, 1)
    ei = torch.cat([edge_index, loops], dim=1)
    src, dst = ei
    d = torch.zeros(num_nodes).index_add_(0, dst, torch.ones(dst.numel()))
    norm = d[src].rsqrt() * d[dst].rsqrt()
    messages = x[src] * norm.unsqueeze(1)
    out = torch.zeros_like(x).index_add_(0, dst, messages)
    return out


X = torch.eye(num_nodes)
print(torch.allclose(propagate(X, edge_index, num_nodes), A_norm @ X, atol=1e-6))
scatter = torch.zeros(num_nodes, 2).scatter_add_(
    0, edge_index[1].unsqueeze(1).expand(-1, 2), torch.ones(edge_index.size(1), 2)
)
print(scatter[:, 0], torch.bincount(edge_index[1]))


class GCNLayer(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_features))

    def forward(self, x, adj):
        return adj @ self.linear(x) + self.bias


class GCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass, dropout=0.5):
        super().__init__()
        self.gc1 = GCNLayer(nfeat, nhid)
        self.gc2 = GCNLayer(nhid, nclass)
        self.dropout = dropout

    def forward(self, x, adj):
        x = F.relu(self.gc1(x, adj))
        x = F.dropout(x, self.dropout, training=self.training)
        return F.log_softmax(self.gc2(x, adj), dim=1)


labels = torch.tensor([0, 0, 0, 0, 1, 1, 1, 1])
train_mask = torch.tensor([True, False, False, False, False, False, False, True])
model = GCN(num_nodes, 4, 2)
optimizer = torch.optim.Adam(model.parameters(), lr=0.05, weight_decay=5e-4)
for epoch in range(30):
    model.train()
    optimizer.zero_grad()
    output = model(X, A_norm)
    loss_train = F.nll_loss(output[train_mask], labels[train_mask])
    acc_train = (output[train_mask].argmax(1) == labels[train_mask]).float().mean()
    loss_train.backward()
    optimizer.step()
    if epoch % 10 == 0:
        print(
            f"Epoch: {epoch + 1:04d} loss_train: {loss_train.item():.4f} "
            f"acc_train: {acc_train.item():.4f}"
        )
model.eval()
output = model(X, A_norm)
pred = output.argmax(dim=1)
print(pred, (pred == labels).sum().item() / num_nodes)
print(output.exp()[:, 1])
