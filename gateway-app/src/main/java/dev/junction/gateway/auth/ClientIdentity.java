package dev.junction.gateway.auth;

import java.net.InetSocketAddress;

import org.springframework.web.server.ServerWebExchange;

/**
 * Who a request comes from: the gateway key's id when keys are on, the client address
 * otherwise.
 */
public final class ClientIdentity {

	/** The exchange attribute holding the identity. */
	public static final String ATTRIBUTE = ClientIdentity.class.getName();

	/**
	 * How the identity of a gateway key begins (a client address begins with
	 * {@code ip:}).
	 */
	static final String KEY_PREFIX = "key:";

	private ClientIdentity() {
	}

	public static String of(ServerWebExchange exchange) {
		String identity = exchange.getAttribute(ATTRIBUTE);
		if (identity != null) {
			return identity;
		}
		InetSocketAddress remote = exchange.getRequest().getRemoteAddress();
		return "ip:"
				+ ((remote != null && remote.getAddress() != null) ? remote.getAddress().getHostAddress() : "unknown");
	}

	/** The identity of the gateway key with id {@code id}. */
	public static String ofKey(String id) {
		return KEY_PREFIX + id;
	}

	/** Whether an identity names a gateway key rather than a client address. */
	public static boolean isGatewayKey(String identity) {
		return identity.startsWith(KEY_PREFIX);
	}

}
