"""L-BFGS: quasi-Newton steps from the last history_size gradient differences, with an
optional strong-Wolfe line search; step(closure) re-evaluates the loss as it goes."""

import functools

import numpy as np

from ..engine.grad_mode import enable_grad, no_grad
from ._kernels import fma
from .optimizer import Optimizer, state_tensor


def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through (x1, f1, g1) and (x2, f2, g2), kept in bounds."""
    low, high = bounds if bounds is not None else (min(x1, x2), max(x1, x2))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if d2_square < 0:
        return (low + high) / 2.0
    d2 = np.sqrt(d2_square)
    if x1 <= x2:
        position = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        position = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(position, low), high)


def _strong_wolfe(evaluate, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """A step t along d meeting the strong Wolfe conditions: bracket, then zoom by cubic
    interpolation. Returns (loss, flat gradient, t, evaluations)."""
    d_norm = np.abs(d).max()
    f_new, g_new = evaluate(t)
    evals = 1
    gtd_new = np.dot(g_new, d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g.copy(), gtd
    done, ls_iter = False, 0
    bracket = bracket_f = bracket_g = bracket_gtd = None
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g, done = [t], [f_new], [g_new], True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        bounds = (t + 0.01 * (t - t_prev), t * 10)
        t, t_prev = _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds), t
        f_prev, g_prev, gtd_prev = f_new, g_new.copy(), gtd_new
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = np.dot(g_new, d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]
    insufficient = False
    low, high = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(
            bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1]
        )
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insufficient or t >= max(bracket) or t <= min(bracket):
                t = (
                    max(bracket) - eps
                    if abs(t - max(bracket)) < abs(t - min(bracket))
                    else min(bracket) + eps
                )
                insufficient = False
            else:
                insufficient = True
        else:
            insufficient = False
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = np.dot(g_new, d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low]:
            bracket[high], bracket_f[high] = t, f_new
            bracket_g[high], bracket_gtd[high] = g_new.copy(), gtd_new
            low, high = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bracket_f[high] = bracket[low], bracket_f[low]
                bracket_g[high], bracket_gtd[high] = bracket_g[low], bracket_gtd[low]
            bracket[low], bracket_f[low] = t, f_new
            bracket_g[low], bracket_gtd[low] = g_new.copy(), gtd_new
    return bracket_f[low], bracket_g[low], bracket[low], evals


class LBFGS(Optimizer):
    """Limited-memory BFGS over all parameters as one vector (one parameter group)."""

    def __init__(
        self,
        params,
        lr=1,
        max_iter=20,
        max_eval=None,
        tolerance_grad=1e-7,
        tolerance_change=1e-9,
        history_size=100,
        line_search_fn=None,
    ):
        if lr < 0:
            raise ValueError(f"Invalid learning rate: {lr}")
        max_eval = max_iter * 5 // 4 if max_eval is None else max_eval
        defaults = dict(
            lr=lr,
            max_iter=max_iter,
            max_eval=max_eval,
            tolerance_grad=tolerance_grad,
            tolerance_change=tolerance_change,
            history_size=history_size,
            line_search_fn=line_search_fn,
        )
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def _flat_grad(self):
        return np.concatenate(
            [
                np.zeros(p.numel(), p._data.dtype) if p._grad is None else np.ravel(p._grad._data)
                for p in self._params
            ]
        )

    def _add(self, step, direction) -> None:
        offset = 0
        for p in self._params:
            n = p.numel()
            store = p._storage()
            # torch's p.add_(direction, alpha=step): one rounding
            store[...] = fma(step, direction[offset : offset + n].reshape(store.shape), store)
            offset += n

    def _evaluate(self, closure, start, step, direction=None):
        self._add(step, direction)
        with enable_grad():
            value = closure()
        loss = float(value.detach())
        flat = self._flat_grad()
        for p, saved in zip(self._params, start, strict=True):
            p._storage()[...] = saved
        return loss, flat

    def step(self, closure):
        """Up to max_iter iterations, each a quasi-Newton direction and a step along it (under
        no_grad, the closure under enable_grad, as in torch: reading the loss warns nothing)."""
        with no_grad():
            return self._step(closure)

    def _step(self, closure):
        self._stepped = True
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tol_grad, tol_change = group["tolerance_grad"], group["tolerance_change"]
        state = self.state.setdefault(self._params[0], {})
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        with enable_grad():
            orig_loss = closure()
        loss = float(orig_loss.detach())
        evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if np.abs(flat_grad).max() <= tol_grad:
            return orig_loss
        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
        h_diag, prev_grad, prev_loss = (
            state.get("H_diag"),
            state.get("prev_flat_grad"),
            state.get("prev_loss"),
        )
        d = None if d is None else d._data
        prev_grad = None if prev_grad is None else prev_grad._data
        n_iter = 0
        with no_grad():
            while n_iter < max_iter:
                n_iter += 1
                state["n_iter"] += 1
                if state["n_iter"] == 1:
                    d = -flat_grad
                    old_dirs, old_stps, ro, h_diag = [], [], [], 1
                else:
                    y = flat_grad - prev_grad
                    s = d * np.asarray(t, d.dtype)
                    ys = np.dot(y, s)
                    if ys > 1e-10:
                        if len(old_dirs) == group["history_size"]:
                            old_dirs.pop(0)
                            old_stps.pop(0)
                            ro.pop(0)
                        old_dirs.append(y)
                        old_stps.append(s)
                        ro.append(ys.dtype.type(1.0) / ys)
                        h_diag = ys / np.dot(y, y)
                    al = [None] * len(old_dirs)
                    q = -flat_grad
                    for i in range(len(old_dirs) - 1, -1, -1):
                        al[i] = np.dot(old_stps[i], q) * ro[i]
                        q = fma(-al[i], old_dirs[i], q)  # torch's q.add_(..., alpha=-al[i])
                    d = r = q * h_diag
                    for i in range(len(old_dirs)):
                        be_i = np.dot(old_dirs[i], r) * ro[i]
                        r = fma(al[i] - be_i, old_stps[i], r)
                    d = r
                prev_grad = flat_grad.copy()
                prev_loss = loss
                first = state["n_iter"] == 1
                t = min(1.0, 1.0 / np.abs(flat_grad).sum()) * lr if first else lr
                gtd = np.dot(flat_grad, d)
                if gtd > -tol_change:
                    break
                ls_evals = 0
                if group["line_search_fn"] is not None:
                    if group["line_search_fn"] != "strong_wolfe":
                        raise RuntimeError("only 'strong_wolfe' is supported")
                    start = [np.array(p._data, copy=True) for p in self._params]
                    loss, flat_grad, t, ls_evals = _strong_wolfe(
                        functools.partial(self._evaluate, closure, start, direction=d),
                        t,
                        d,
                        loss,
                        flat_grad,
                        gtd,
                        max_ls=max_eval - evals,
                    )
                    self._add(t, d)
                    opt_cond = np.abs(flat_grad).max() <= tol_grad
                else:
                    self._add(t, d)
                    opt_cond = False
                    if n_iter != max_iter:
                        with enable_grad():
                            value = closure()
                        loss = float(value.detach())
                        flat_grad = self._flat_grad()
                        opt_cond = np.abs(flat_grad).max() <= tol_grad
                        ls_evals = 1
                evals += ls_evals
                state["func_evals"] += ls_evals
                if n_iter == max_iter or evals >= max_eval or opt_cond:
                    break
                if np.abs(d * np.asarray(t, d.dtype)).max() <= tol_change:
                    break
                if abs(loss - prev_loss) < tol_change:
                    break
        state.update(
            d=state_tensor(d),
            t=t,
            old_dirs=old_dirs,
            old_stps=old_stps,
            ro=ro,
            H_diag=h_diag,
            prev_flat_grad=state_tensor(prev_grad),
            prev_loss=prev_loss,
        )
        return orig_loss
