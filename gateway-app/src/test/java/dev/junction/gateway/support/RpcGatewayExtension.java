package dev.junction.gateway.support;

import java.util.List;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An {@link RpcGateway} with these properties for the tests of a class: started before
 * the first, closed after the last.
 */
public final class RpcGatewayExtension implements BeforeAllCallback, AfterAllCallback {

	private final List<String> properties;

	private RpcGateway gateway;

	public RpcGatewayExtension(String... properties) {
		this.properties = List.of(properties);
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		this.gateway = RpcGateway.start(this.properties);
	}

	@Override
	public void afterAll(ExtensionContext context) {
		if (this.gateway != null) {
			this.gateway.close();
			this.gateway = null;
		}
	}

	public RunningCalculator calculator() {
		return this.gateway.calculator();
	}

	public String baseUrl() {
		return this.gateway.baseUrl();
	}

	/** The JSON-RPC endpoint. */
	public String rpcUrl() {
		return baseUrl() + "/rpc";
	}

	/** The tRPC endpoint, to which procedure names are appended. */
	public String trpcUrl() {
		return baseUrl() + "/trpc/";
	}

}
