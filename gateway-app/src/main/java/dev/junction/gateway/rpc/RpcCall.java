package dev.junction.gateway.rpc;

import dev.junction.gateway.auth.ClientIdentity;
import dev.junction.gateway.metrics.GatewayTimingFilter;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * Who is calling and through which protocol; shared by every call of one HTTP request.
 *
 * @param exchange the HTTP exchange
 * @param client the gateway key's id or the client address
 * @param authorization the {@code Authorization} header, for admin checks
 * @param entryPoint the protocol, as a metric tag: {@code rpc} or {@code trpc}
 * @param startNanos when the HTTP request arrived
 */
public record RpcCall(ServerWebExchange exchange, String client, @Nullable String authorization, String entryPoint,
		long startNanos) {

	public static RpcCall of(ServerWebExchange exchange, String entryPoint) {
		return new RpcCall(exchange, ClientIdentity.of(exchange),
				exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION), entryPoint,
				GatewayTimingFilter.start(exchange));
	}

}
