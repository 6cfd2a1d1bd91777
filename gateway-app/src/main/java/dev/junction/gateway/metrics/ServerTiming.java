package dev.junction.gateway.metrics;

/**
 * The {@code Server-Timing} header: the gateway's own time and the upstream's, in
 * milliseconds.
 */
public final class ServerTiming {

	/** The header's name. */
	public static final String HEADER = "Server-Timing";

	private ServerTiming() {
	}

	/** The header's value for these durations, in nanoseconds. */
	public static String of(long gatewayNanos, long upstreamNanos) {
		StringBuilder header = new StringBuilder(48).append("gateway;dur=");
		millis(header, gatewayNanos).append(", upstream;dur=");
		return millis(header, upstreamNanos).toString();
	}

	/**
	 * Appends nanoseconds as milliseconds with three decimals, without String.format's
	 * cost.
	 */
	private static StringBuilder millis(StringBuilder out, long nanos) {
		long micros = nanos / 1000;
		out.append(micros / 1000).append('.');
		long fraction = micros % 1000;
		if (fraction < 100) {
			out.append('0');
		}
		if (fraction < 10) {
			out.append('0');
		}
		return out.append(fraction);
	}

}
