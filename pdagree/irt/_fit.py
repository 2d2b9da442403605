"""Marginal maximum likelihood for the graded response model with judges as IRT items."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._typing import BoolArray, FloatArray
from .._warnings import ConvergenceWarning, warn
from ..encoding import plain
from ..tensors import RatingData
from ._data import IRTData, prepare
from ._model import extend_thresholds, gauss_hermite, loglik_gradient
from ._result import GradedResponseFit

__all__ = ["ConvergenceWarning", "fit"]

#: A fit has converged when the Newton decrement g' (-H)^-1 g at the solution is below this:
#: the log-likelihood is then within 5e-7 of its maximum (under its quadratic model) and every
#: parameter within 0.001 standard errors of the maximiser.
CONVERGED_DECREMENT = 1e-6
#: ... and when the Newton step from it moves no parameter by more than this, relative to the
#: parameter (at least 1): a likelihood that keeps rising towards infinity (a discrimination
#: running off when judges agree perfectly) has a small decrement but steps that do not shrink.
CONVERGED_STEP = 1e-3
#: Newton steps after BFGS stop once the decrement is below this.
POLISHED_DECREMENT = 1e-14
#: The most cells (patterns x parameter points x nodes) of one batched likelihood evaluation.
BATCH_CELLS = 1 << 22
#: Log threshold gaps are kept below this while optimising (a gap of e^30 is no gap at all).
MAX_LOG_GAP = 30.0


@dataclass(frozen=True, eq=False)
class _Problem:
    """The log-likelihood as a function of the parameter vector.

    Natural parameters: the fitted thresholds ``beta_jm`` (row-major over ``data.fitted``),
    then the discrimination (one, or one per judge). The optimiser's parameters replace each
    judge's thresholds by the first and the logs of the gaps, so the thresholds stay ordered.
    """

    data: IRTData
    nodes: FloatArray
    log_weights: FloatArray
    constrained: bool

    @property
    def fitted(self) -> BoolArray:
        return self.data.fitted

    @property
    def first(self) -> BoolArray:
        """(J, K - 1): each judge's first fitted threshold."""
        m = np.arange(self.fitted.shape[1])
        return self.fitted & (m[None, :] == self.data.lowest[:, None])

    @property
    def n_thresholds(self) -> int:
        return int(self.fitted.sum())

    @property
    def n_parameters(self) -> int:
        return self.n_thresholds + (1 if self.constrained else self.data.n_judges)

    def split(self, nu: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Thresholds (..., J, K - 1), nan where not fitted, and discriminations (..., J)
        from natural parameters (..., P)."""
        batch = nu.shape[:-1]
        beta = np.full((*batch, *self.fitted.shape), np.nan)
        beta[..., self.fitted] = nu[..., : self.n_thresholds]
        a = nu[..., self.n_thresholds :]
        if self.constrained:
            a = np.repeat(a, self.data.n_judges, axis=-1)
        return beta, a.copy()

    def loglik_gradients(self, nu: FloatArray) -> tuple[FloatArray, FloatArray]:
        """logL (B,) and its gradient (B, P) at B points (B, P) of the natural parameters."""
        beta, a = self.split(nu)
        loglik, grad_t, grad_a = loglik_gradient(
            self.data.patterns,
            extend_thresholds(beta, self.fitted, self.data.lowest),
            a,
            self.nodes,
            self.log_weights,
            self.data.valid,
        )
        grad_beta = grad_t[..., 1:-1][..., self.fitted]
        grad_disc = grad_a.sum(axis=-1, keepdims=True) if self.constrained else grad_a
        return loglik, np.concatenate([grad_beta, grad_disc], axis=-1)

    def label(self, i: int) -> str:
        """The natural parameter ``i`` in words, for messages."""
        raters, categories = self.data.raters, self.data.categories
        if i >= self.n_thresholds:
            if self.constrained:
                return "common discrimination"
            return f"discrimination of judge {plain(raters[i - self.n_thresholds])!r}"
        judge, m = (int(x[i]) for x in np.nonzero(self.fitted))
        return (
            f"threshold of judge {plain(raters[judge])!r} between categories "
            f"{plain(categories[m])!r} and {plain(categories[m + 1])!r}"
        )

    def loglik_gradient(self, nu: FloatArray) -> tuple[float, FloatArray]:
        """logL and its gradient at one point of the natural parameters."""
        loglik, grad = self.loglik_gradients(nu[None, :])
        return float(loglik[0]), grad[0]

    def ordered(self, nu: FloatArray) -> bool:
        """Whether ``nu`` is finite with each judge's thresholds increasing."""
        beta, _ = self.split(nu)
        both = self.fitted[:, 1:] & self.fitted[:, :-1]
        return bool(np.all(np.isfinite(nu)) and np.all(np.diff(beta, axis=1)[both] > 0))

    # -- the optimiser's parameters

    def to_theta(self, nu: FloatArray) -> FloatArray:
        beta, _ = self.split(nu)
        previous = np.hstack([np.zeros((beta.shape[0], 1)), beta[:, :-1]])
        with np.errstate(invalid="ignore"):
            gaps = np.where(self.first, beta, np.log(np.where(self.first, 1.0, beta - previous)))
        return np.concatenate([gaps[self.fitted], nu[self.n_thresholds :]])

    def _steps(self, theta: FloatArray) -> FloatArray:
        m = np.zeros(self.fitted.shape)
        m[self.fitted] = theta[: self.n_thresholds]
        steps = np.where(self.first, m, np.exp(np.minimum(m, MAX_LOG_GAP)))
        return np.where(self.fitted, steps, 0.0)

    def from_theta(self, theta: FloatArray) -> FloatArray:
        beta = np.cumsum(self._steps(theta), axis=1)
        return np.concatenate([beta[self.fitted], theta[self.n_thresholds :]])

    def theta_gradient(self, theta: FloatArray, grad_nu: FloatArray) -> FloatArray:
        """The chain rule: ``d/d theta_first = sum_k g_k``, ``d/d log gap_m = gap_m *
        sum_{k >= m} g_k`` over the judge's thresholds."""
        g = np.zeros(self.fitted.shape)
        g[self.fitted] = grad_nu[: self.n_thresholds]
        tail = np.cumsum(g[:, ::-1], axis=1)[:, ::-1]
        out = np.where(self.first, tail, tail * self._steps(theta))
        return np.concatenate([out[self.fitted], grad_nu[self.n_thresholds :]])

    # -- starting values and the observed information

    def start(self) -> FloatArray:
        """Thresholds at the logits of each judge's cumulative proportions, widened for
        a = 1 (``E F(beta - z) ~ F(beta / sqrt(1 + pi/8))``), and a = 1."""
        counts = self.data.rater_counts
        cumulative = np.cumsum(counts, axis=1)[:, :-1] / counts.sum(axis=1, keepdims=True)
        inside = np.clip(cumulative, 1e-6, 1 - 1e-6)
        beta = np.log(inside / (1 - inside)) * np.sqrt(1 + np.pi / 8)
        n_disc = 1 if self.constrained else self.data.n_judges
        return np.concatenate([beta[self.fitted], np.ones(n_disc)])

    def hessian(self, nu: FloatArray) -> FloatArray:
        """The Hessian of logL: central differences of the analytic gradient (all 2P
        points in batched evaluations), symmetrised."""
        n = len(nu)
        steps = 1e-5 * np.maximum(1.0, np.abs(nu))
        points = np.concatenate([nu + np.diag(steps), nu - np.diag(steps)])
        rows = sum(len(block) for block in self.data.patterns.onehot[:1])
        batch = max(1, BATCH_CELLS // max(rows * len(self.nodes), 1))
        grads = np.concatenate(
            [self.loglik_gradients(points[i : i + batch])[1] for i in range(0, 2 * n, batch)]
        )
        out = (grads[:n] - grads[n:]) / (2 * steps[:, None])
        return (out + out.T) / 2


@dataclass(frozen=True)
class _Solution:
    """Where the Newton steps stopped: the point, logL, gradient and Hessian there, the steps
    taken, the decrement ``g' (-H)^-1 g`` and the Newton step ``(-H)^-1 g`` (inf and nan when
    -H is not positive definite)."""

    nu: FloatArray
    loglik: float
    grad: FloatArray
    hess: FloatArray
    steps: int
    decrement: float
    step: FloatArray


def _newton(problem: _Problem, nu: FloatArray, max_steps: int) -> _Solution:
    """Newton steps from ``nu`` (halved until the likelihood rises and the thresholds stay
    ordered) until the decrement is negligible or ``max_steps`` are taken.

    Where the information stops being positive definite after some steps (parameters running
    off towards a maximum at infinity flatten the likelihood until rounding decides), the
    last point where it was is returned: its Newton step shows which parameter runs off."""
    loglik, grad = problem.loglik_gradient(nu)
    steps = 0
    here: _Solution | None = None
    while True:
        hess = problem.hessian(nu)
        try:
            factor = np.linalg.cholesky(-hess)
        except np.linalg.LinAlgError:
            if here is not None:
                return here
            return _Solution(nu, loglik, grad, hess, steps, np.inf, np.full_like(nu, np.nan))
        delta = np.linalg.solve(factor.T, np.linalg.solve(factor, grad))
        decrement = float(grad @ delta)
        here = _Solution(nu, loglik, grad, hess, steps, decrement, delta)
        if decrement < POLISHED_DECREMENT or steps >= max_steps:
            return here
        t = 1.0
        while t > 1e-6:
            candidate = nu + t * delta
            if problem.ordered(candidate):
                cand_loglik, cand_grad = problem.loglik_gradient(candidate)
                if cand_loglik >= loglik - 1e-12 * abs(loglik):
                    break
            t /= 2
        else:
            return here
        nu, loglik, grad = candidate, cand_loglik, cand_grad
        steps += 1


def _diagnosis(problem: _Problem, solution: _Solution) -> str | None:
    """Why the solution is not a maximum, or ``None`` when it is."""
    if not np.isfinite(solution.decrement):
        return (
            "the observed information is not positive definite at the solution, so some "
            "parameter is not identified (judges who always agree, or more parameters than "
            "the ratings can fix)"
        )
    if solution.decrement > CONVERGED_DECREMENT:
        return (
            f"the Newton decrement at the solution is {solution.decrement:.2g}; raise "
            "`max_iterations`"
        )
    relative = np.abs(solution.step) / np.maximum(1.0, np.abs(solution.nu))
    worst = int(np.argmax(relative))
    if relative[worst] > CONVERGED_STEP:
        return (
            f"the likelihood still rises with the {problem.label(worst)} "
            f"({solution.nu[worst]:.3g}, a Newton step of {solution.step[worst]:.2g}): its "
            "maximum lies at infinity (judges who agree perfectly, or too few items)"
        )
    return None


MAX_QUADRATURE = 201
"""The most quadrature nodes ``fit`` accepts: Gauss-Hermite rules past a few dozen nodes
change the likelihood of a normal latent trait by nothing measurable, while the work and the
memory (patterns x nodes x categories per judge) grow in proportion."""


def _check_options(constrained: object, quadrature: object, max_iterations: object) -> None:
    if not isinstance(constrained, (bool, np.bool_)):
        raise TypeError(f"`constrained` must be True or False; got {constrained!r}.")
    if (
        isinstance(quadrature, (int, np.integer))
        and not isinstance(quadrature, (bool, np.bool_))
        and quadrature > MAX_QUADRATURE
    ):
        raise ValueError(
            f"`quadrature` must be an integer from 3 to {MAX_QUADRATURE}; got "
            f"{plain(quadrature)!r}. "
            "More nodes change the likelihood by nothing measurable and cost memory in "
            "proportion (the default, 21, is ltm's)."
        )
    for name, value, least in (
        ("quadrature", quadrature, 3),
        ("max_iterations", max_iterations, 1),
    ):
        if (
            isinstance(value, (bool, np.bool_))
            or not isinstance(value, (int, np.integer))
            or value < least
        ):
            raise ValueError(f"`{name}` must be an integer >= {least}; got {plain(value)!r}.")


def fit(
    data: RatingData,
    *,
    constrained: bool = True,
    quadrature: int = 21,
    max_iterations: int = 1000,
) -> GradedResponseFit:
    """Fit the graded response model with the judges as IRT items (Amidei et al. 2020).

    The rated items (sentences, images, ...) play the IRT "persons": each has a latent trait
    ``z ~ N(0, 1)`` (fluency, ambiguity, ...), and each judge ``j`` is an IRT "item" with a
    discrimination ``a_j`` and one extremity parameter per boundary between two adjacent
    categories. This is R ``ltm::grm()`` on the items x judges matrix, with the same model and
    quadrature; its estimates and standard errors agree with the ``mirt`` package's, and its
    standard errors are correct where ltm's are not (see Notes).

    Parameters
    ----------
    constrained : bool, default True
        One discrimination shared by all judges (the paper's ``constrained = TRUE``), or one
        per judge.
    quadrature : int, default 21
        Gauss-Hermite nodes for the integral over ``z`` (ltm's default; the second decimal of
        the estimates can depend on it).
    max_iterations : int, default 1000
        The most BFGS iterations plus Newton steps.

    Returns
    -------
    GradedResponseFit
        ``parameters`` (``discrimination``, ``extremity_1`` ... ``extremity_{K-1}``, one row
        per judge), ``standard_errors``, ``loglik``, ``aic``, ``bic``, ``converged``,
        ``n_iterations``, ``message``; ``lr_test(other)``, ``irccc(z=...)``,
        ``item_scores()``, ``disagreement(a, b)`` and ``plot()``.

    Raises
    ------
    ValueError
        For a counts table (no judges), ``by=`` groups, text categories whose order was not
        declared, a judge who uses fewer than two categories, or a judge who skips a category
        between two it uses (the error names the judge and the category).

    Warns
    -----
    ConvergenceWarning
        When the fit does not reach a maximum (``converged`` is then False).

    Notes
    -----
    Judge j, ordered categories k = 1 .. K, item trait z ~ N(0, 1), F the logistic function:

        P(Y_j <= k | z) = F(beta_jk - a_j z),      beta_j1 < ... < beta_j,K-1
        P(Y_j = k | z)  = P(Y_j <= k | z) - P(Y_j <= k - 1 | z)        (the IRCCC)

    reported as ``extremity_k = beta_jk / a_j``, the z at which P(Y_j > k | z) = 0.5:
    ``P(Y_j > k | z) = F(a_j (z - extremity_k))``. Higher z means higher categories.

    Marginal maximum likelihood: the items' response patterns are collapsed (counts n_r),
    a missing cell leaves its judge out of that item's product (missing at random), and

        logL = sum_r n_r log sum_q w_q prod_{j observed} P(Y_j = x_rj | z_q)

    with Gauss-Hermite nodes z_q and weights w_q for the standard normal
    (``numpy.polynomial.hermite_e``). scipy's BFGS maximises it with the analytic gradient,
    each judge's thresholds written as the first and the logs of the gaps so they stay
    ordered, from thresholds at the logits of the judge's cumulative proportions and a = 1;
    Newton steps on the observed information then polish the maximum. ``converged`` is
    judged at the solution, not from the optimiser's flag (BFGS can report a loss of
    precision at the optimum): the observed information ``-H`` must be positive definite, the
    Newton decrement ``g' (-H)^-1 g`` below 1e-6 (every parameter within 0.001 standard
    errors of the maximiser), and the Newton step ``(-H)^-1 g`` must move no parameter by more
    than 0.001 of its size (at least 1): a likelihood that keeps rising as a discrimination
    runs off to infinity (judges who agree perfectly) flattens, but its steps do not shrink.

    A judge who never uses the lowest (or highest) categories is fitted on the categories it
    uses, as ltm does: its extremities for those boundaries are nan and the degrees of
    freedom count only its fitted thresholds, ``df = sum_j (K_j - 1) + (1 if constrained
    else J)``; ``AIC = -2 logL + 2 df``, ``BIC = -2 logL + log(n) df`` with n the items that
    have a rating. A judge who skips a category between two it uses leaves a threshold
    unidentified: an error names the judge and the category.

    Standard errors come from the inverse of the observed information (central differences
    of the analytic gradient in (beta, a)) and the delta method for ``beta / a`` with the
    full covariance of (beta_jk, a). ltm's printed standard errors of ``Extrmt2`` and above
    are wrong, sometimes by orders of magnitude (its covariance is mapped through
    ``exp(beta)`` instead of the threshold gaps); those of ``Extrmt1`` and ``Dscrmn`` agree
    with these.

    The likelihood is even in the discriminations (flipping the sign of z), so they are
    reported positive (one per judge: with a positive sum).

    References
    ----------
    Amidei, J., Piwek, P. & Willis, A. (2020). Identifying annotator bias: a new IRT-based
    method for bias identification. COLING 2020.
    Samejima, F. (1969). Estimation of latent ability using a response pattern of graded
    scores. Psychometrika Monograph Supplement 17.

    Examples
    --------
    >>> import pdagree
    >>> df = pdagree.datasets.load("qgstec_simulated")
    >>> ambiguity = df[df["criterion"] == "ambiguity"].drop(columns="criterion")
    >>> fit = ambiguity.agree.irt()
    >>> fit.converged
    True
    """
    _check_options(constrained, quadrature, max_iterations)
    from scipy import optimize  # imported here: `import pdagree` stays fast

    irt_data = prepare(data)
    nodes, weights = gauss_hermite(int(quadrature))
    problem = _Problem(irt_data, nodes, np.log(weights), bool(constrained))
    scale = float(irt_data.n_rated)

    def objective(theta: FloatArray) -> tuple[float, FloatArray]:
        nu = problem.from_theta(theta)
        loglik, grad = problem.loglik_gradient(nu)
        return -loglik / scale, -problem.theta_gradient(theta, grad) / scale

    result = optimize.minimize(
        objective,
        problem.to_theta(problem.start()),
        jac=True,
        method="BFGS",
        options={"maxiter": int(max_iterations), "gtol": 1e-7},
    )
    nu = problem.from_theta(np.asarray(result.x, dtype=np.float64))
    # logL is even in the discriminations (the nodes are symmetric): report a > 0, or for
    # one discrimination per judge, a positive sum, so higher z means higher categories.
    n_thr = problem.n_thresholds
    if nu[n_thr:].sum() < 0:
        nu[n_thr:] = -nu[n_thr:]
    n_iterations = int(result.nit)
    solution = _newton(problem, nu, max(0, int(max_iterations) - n_iterations))
    n_iterations += solution.steps
    problem_found = _diagnosis(problem, solution)
    converged = problem_found is None
    message = (
        f"BFGS: {result.message} ({int(result.nit)} iterations); {solution.steps} Newton "
        f"steps; at the solution max |d logL| = {float(np.max(np.abs(solution.grad))):.2g}, "
        f"Newton decrement = {solution.decrement:.2g}" + ("" if converged else "; not converged")
    )
    if problem_found is not None:
        warn(
            f"the graded response model did not converge: {problem_found}. The estimates and "
            f"standard errors are not reliable ({message}).",
            ConvergenceWarning,
        )
    beta, a = problem.split(solution.nu)
    if np.isfinite(solution.decrement):
        covariance = np.asarray(np.linalg.inv(-solution.hess), dtype=np.float64)
    else:
        covariance = np.full_like(solution.hess, np.nan)
    return GradedResponseFit(
        data=irt_data,
        thresholds=beta,
        discrimination=a,
        covariance=covariance,
        loglik=solution.loglik,
        converged=converged,
        n_iterations=n_iterations,
        message=message,
        constrained=bool(constrained),
        quadrature=int(quadrature),
        nodes=nodes,
        weights=weights,
    )
