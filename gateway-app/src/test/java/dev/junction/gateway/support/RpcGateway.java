package dev.junction.gateway.support;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The real gateway with a calculator-service of its own, both on random ports, for the
 * RPC endpoints.
 */
public final class RpcGateway implements AutoCloseable {

	private final RunningCalculator calculator;

	private final RunningGateway gateway;

	private RpcGateway(RunningCalculator calculator, RunningGateway gateway) {
		this.calculator = calculator;
		this.gateway = gateway;
	}

	/**
	 * Starts a calculator, then the gateway with these properties and that calculator's
	 * address.
	 */
	public static RpcGateway start(List<String> properties) {
		RunningCalculator calculator = RunningCalculator.start();
		List<String> all = new ArrayList<>(properties);
		all.add("junction.gateway.calculator.address=" + calculator.address());
		// The health check's 300 ms deadline is for production: a loaded test machine may
		// need longer.
		all.add("junction.gateway.calculator.health-deadline=5s");
		try {
			return new RpcGateway(calculator, RunningGateway.start(all));
		}
		catch (RuntimeException ex) {
			calculator.close();
			throw ex;
		}
	}

	public RunningCalculator calculator() {
		return this.calculator;
	}

	public String baseUrl() {
		return this.gateway.baseUrl();
	}

	/** A tRPC {@code input} query parameter holding {@code json}. */
	public static String trpcInput(String json) {
		return "input=" + URLEncoder.encode(json, StandardCharsets.UTF_8);
	}

	@Override
	public void close() {
		try {
			this.gateway.close();
		}
		finally {
			this.calculator.close();
		}
	}

}
