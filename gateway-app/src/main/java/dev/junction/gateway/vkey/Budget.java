package dev.junction.gateway.vkey;

/**
 * How much a key may spend per period.
 *
 * @param nanos the limit in billionths of a US dollar
 * @param period the period it applies to
 */
public record Budget(long nanos, Period period) {

	public double usd() {
		return Money.usd(this.nanos);
	}

}
