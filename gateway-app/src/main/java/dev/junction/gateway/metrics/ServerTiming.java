package dev.junction.gateway.chat;

import dev.junction.gateway.pipeline.ChatExchange;

/** The {@code Server-Timing} header: the gateway's own time and the upstream's, in milliseconds. */
final class ServerTiming {

	private ServerTiming() {
	}

	static String of(ChatExchange exchange) {
		long upstream = exchange.upstreamNanos();
		long gateway = exchange.gatewayNanos();
		StringBuilder header = new StringBuilder(48).append("gateway;dur=");
		millis(header, gateway).append(", upstream;dur=");
		return millis(header, upstream).toString();
	}

	/** Appends nanoseconds as milliseconds with three decimals, without String.format's cost. */
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
