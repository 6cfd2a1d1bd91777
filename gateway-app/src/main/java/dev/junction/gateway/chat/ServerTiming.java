package dev.junction.gateway.chat;

import java.util.Locale;

import dev.junction.gateway.pipeline.ChatExchange;

/** The {@code Server-Timing} header: the gateway's own time and the upstream's, in milliseconds. */
final class ServerTiming {

	private ServerTiming() {
	}

	static String of(ChatExchange exchange) {
		long upstream = exchange.upstreamNanos();
		long gateway = exchange.gatewayNanos();
		return String.format(Locale.ROOT, "gateway;dur=%.3f, upstream;dur=%.3f", gateway / 1e6, upstream / 1e6);
	}

}
