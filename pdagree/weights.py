"""Agreement weights (Gwet's named schemes and user matrices): the public path of
:mod:`pdagree.encoding.weights`."""

from .encoding.weights import SCHEMES, check_numeric_order, undeclared_order_message, weight_matrix

__all__ = ["SCHEMES", "check_numeric_order", "undeclared_order_message", "weight_matrix"]
