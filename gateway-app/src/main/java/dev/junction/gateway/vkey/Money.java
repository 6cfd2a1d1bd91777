package dev.junction.gateway.vkey;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Amounts of US dollars as whole billionths (nano-dollars), exact to add and compare. */
public final class Money {

	private static final BigDecimal NANOS = BigDecimal.valueOf(1_000_000_000L);

	private Money() {
	}

	public static double usd(long nanos) {
		return nanos / 1e9;
	}

	/** Dollars as nano-dollars, rounded to the nearest. */
	public static long nanos(double usd) {
		return BigDecimal.valueOf(usd).multiply(NANOS).setScale(0, RoundingMode.HALF_UP).longValueExact();
	}

	/** Dollars as a decimal string without exponent, for JSON and headers. */
	public static BigDecimal decimal(long nanos) {
		return BigDecimal.valueOf(nanos).divide(NANOS).stripTrailingZeros();
	}

}
