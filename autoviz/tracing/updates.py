"""What an optimizer step does to a parameter, as plain data and as a sentence."""

from .text import number

# The hyperparameters each step reads, in the order the rule names them.
_KNOWN = ("lr", "momentum", "dampening", "nesterov", "weight_decay", "betas", "eps", "amsgrad")


def update_rule(optimizer: str, group: dict) -> dict:
    """The optimizer's name and the hyperparameters of the parameter group it stepped, as
    JSON-friendly numbers (`lr` may be a tensor in PyTorch)."""
    rule = {"optimizer": optimizer}
    for key in _KNOWN:
        if key in group:
            rule[key] = _plain(group[key])
    if group.get("maximize"):
        rule["maximize"] = True
    if group.get("decoupled_weight_decay"):
        rule["decoupled_weight_decay"] = True
    return rule


def _plain(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    try:
        return float(value) if not isinstance(value, int) else value
    except (TypeError, ValueError):
        return str(value)


def rule_text(rule: dict | None, name: str) -> str:
    """`SGD: w ← w − 0.1 × grad`: the update the optimizer applied to parameter `name`."""
    if not rule:
        return f"{name} is changed in place under no_grad, without being recorded"
    optimizer, lr = rule.get("optimizer", "optimizer"), number(rule.get("lr", 0.0))
    sign = "+" if rule.get("maximize") else "−"
    grad = "grad"
    if rule.get("weight_decay") and not rule.get("decoupled_weight_decay"):
        grad = f"(grad + {number(rule['weight_decay'])} × {name})"
    if "betas" in rule:
        beta1, beta2 = (number(b) for b in rule["betas"])
        text = (
            f"{optimizer}: {name} ← {name} {sign} {lr} × m̂ / (√v̂ + {number(rule['eps'])}), "
            f"m and v running means of {grad} (β₁ = {beta1}) and its square (β₂ = {beta2})"
        )
        if rule.get("decoupled_weight_decay") and rule.get("weight_decay"):
            text += f", after {name} ← {name} × (1 − {lr} × {number(rule['weight_decay'])})"
        return text
    if rule.get("momentum"):
        return (
            f"{optimizer}: {name} ← {name} {sign} {lr} × buf, buf ← "
            f"{number(rule['momentum'])} × buf + {grad}"
            + (" (Nesterov)" if rule.get("nesterov") else "")
        )
    return f"{optimizer}: {name} ← {name} {sign} {lr} × {grad}"
