package dev.junction.gateway.rpc;

import dev.junction.gateway.chat.CostHeaders;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatExchange.BudgetStatus;

import org.springframework.http.HttpHeaders;

/**
 * What the AI calls of one HTTP request cost together, and the least of its key's budget
 * any of them saw left after it: for a batch, the budget left after the batch (a call
 * still settling when another reserved counts at its reservation, so never more than is
 * left).
 */
final class RequestSpend {

	private long costNanos = -1;

	private long limitNanos = -1;

	private long remainingNanos = Long.MAX_VALUE;

	private long resetSeconds = -1;

	/** Adds a call that went through the pipeline, once it ended. */
	synchronized void add(ChatExchange exchange) {
		long cost = exchange.costNanos();
		if (cost >= 0) {
			this.costNanos = Math.max(0, this.costNanos) + cost;
		}
		BudgetStatus budget = exchange.budget();
		if (budget != null) {
			long remaining = CostHeaders.remaining(budget, cost);
			if (remaining <= this.remainingNanos) {
				this.remainingNanos = remaining;
				this.limitNanos = budget.limitNanos();
				this.resetSeconds = budget.resetSeconds();
			}
		}
	}

	/**
	 * Sets {@code X-Request-Cost} and {@code X-Budget-*} when a call was priced or
	 * reserved budget.
	 */
	synchronized void headers(HttpHeaders headers) {
		if (this.costNanos >= 0) {
			CostHeaders.cost(headers, this.costNanos);
		}
		if (this.limitNanos >= 0) {
			CostHeaders.budget(headers, this.limitNanos, this.remainingNanos, this.resetSeconds);
		}
	}

}
