package dev.junction.gateway.auth;

import java.net.InetSocketAddress;

import org.springframework.web.server.ServerWebExchange;

/** Who a request comes from: the gateway key's id when keys are on, the client address otherwise. */
public final class ClientIdentity {

	/** The exchange attribute holding the identity. */
	public static final String ATTRIBUTE = ClientIdentity.class.getName();

	private ClientIdentity() {
	}

	public static String of(ServerWebExchange exchange) {
		String identity = exchange.getAttribute(ATTRIBUTE);
		if (identity != null) {
			return identity;
		}
		InetSocketAddress remote = exchange.getRequest().getRemoteAddress();
		return "ip:" + ((remote != null && remote.getAddress() != null) ? remote.getAddress().getHostAddress()
				: "unknown");
	}

}
