package dev.junction.gateway.cost;

import dev.junction.gateway.provider.Usage;
import org.jspecify.annotations.Nullable;

/**
 * A model's prices in US dollars per million tokens.
 *
 * @param input tokens read
 * @param output tokens generated
 * @param cachedInput tokens read from the provider's prompt cache; the input price when
 * unset
 * @param reasoning reasoning tokens; the output price when unset
 */
public record Price(double input, double output, @Nullable Double cachedInput, @Nullable Double reasoning) {

	/** A model without a price: it costs nothing. */
	public static final Price FREE = new Price(0, 0, null, null);

	/**
	 * What {@code usage} costs, in nano-dollars (a price per million tokens is
	 * nano-dollars per thousand).
	 */
	public long nanos(Usage usage) {
		long cached = Math.min(usage.cachedTokens(), usage.promptTokens());
		long reasoning = Math.min(usage.reasoningTokens(), usage.completionTokens());
		double perMillion = (usage.promptTokens() - cached) * this.input + cached * cachedInputPrice()
				+ (usage.completionTokens() - reasoning) * this.output + reasoning * reasoningPrice();
		return Math.round(perMillion * 1000);
	}

	/**
	 * The most {@code promptTokens} read and {@code completionTokens} generated can cost,
	 * in nano-dollars.
	 */
	public long ceilingNanos(long promptTokens, long completionTokens) {
		double perMillion = promptTokens * Math.max(this.input, cachedInputPrice())
				+ completionTokens * Math.max(this.output, reasoningPrice());
		return (long) Math.ceil(perMillion * 1000);
	}

	public double cachedInputPrice() {
		return (this.cachedInput != null) ? this.cachedInput : this.input;
	}

	public double reasoningPrice() {
		return (this.reasoning != null) ? this.reasoning : this.output;
	}

}
