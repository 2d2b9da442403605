"""Pure numpy kernels over count tensors.

Kernels take counts (``n_ik`` per item, ``n_gck`` per group and rater, pair confusions) and a
(K, K) agreement-weight matrix, and return components as float arrays with a leading group
axis. Items carry a group code, so one call computes every ``by=`` group (and every bootstrap
replicate, which is a group of its own). Kernels never validate, warn or touch pandas.
"""
