package dev.junction.gateway.rpc;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.junction.gateway.GatewayApplication;
import dev.junction.gateway.calculator.CalculatorClient;
import dev.junction.gateway.provider.ProviderHealth;
import dev.junction.gateway.provider.ProviderRegistry;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** {@code system.health}, {@code admin.healthCheck} and {@code test.simulateAI}. */
public final class SystemProcedures {

	private static final String VERSION = version();

	private final ProviderRegistry providers;

	private final CalculatorClient calculator;

	private final RpcProperties properties;

	private final long startNanos = System.nanoTime();

	public SystemProcedures(ProviderRegistry providers, CalculatorClient calculator, RpcProperties properties) {
		this.providers = providers;
		this.calculator = calculator;
		this.properties = properties;
	}

	public List<Procedure> procedures() {
		ObjectNode health = Schemas.object("status", "string", "uptime", "number", "version", "string", "timestamp",
				"string", "dependencies", "object");
		return List.of(
				new Procedure("system.health",
						"The gateway's status, uptime and version, and the state of the providers and the calculator.",
						Procedure.Type.QUERY, false, List.of(), health,
						(arguments, call) -> health(this.calculator.cachedHealth())),
				new Procedure("admin.healthCheck",
						"system.health with a fresh calculator check and JVM details; needs an admin key.",
						Procedure.Type.QUERY, true, List.of(), health, (arguments, call) -> adminHealth()),
				new Procedure("test.simulateAI",
						"Answers after a delay, as a slow model would, without holding a thread.", Procedure.Type.QUERY,
						false,
						List.of(Param.optional("delayMs", "integer",
								"Milliseconds to wait (default " + this.properties.defaultSimulatedDelay().toMillis()
										+ ", at most " + this.properties.maxSimulatedDelay().toMillis() + ")")),
						Schemas.object("message", "string", "delayMs", "integer", "timestamp", "string"),
						(arguments, call) -> simulate(arguments)));
	}

	private Mono<JsonNode> health(Mono<String> calculatorHealth) {
		return calculatorHealth.map((calculatorStatus) -> {
			boolean serving = "SERVING".equals(calculatorStatus);
			ProviderHealth providerHealth = ProviderHealth.of(this.providers);
			ObjectNode result = JsonNodeFactory.instance.objectNode();
			result.put("status", (serving && ProviderHealth.UP.equals(providerHealth.status())) ? "ok" : "degraded");
			result.put("uptime", (System.nanoTime() - this.startNanos) / 1e9);
			result.put("version", VERSION);
			result.put("timestamp", Instant.now().toString());
			ObjectNode dependencies = result.putObject("dependencies");
			ObjectNode providers = dependencies.putObject("providers");
			providers.put("status", providerHealth.status());
			this.providers.names().forEach(providers.putArray("configured")::add);
			providers.set("keys", providerHealth.keys());
			ObjectNode calculator = dependencies.putObject("calculator");
			calculator.put("status", serving ? "up" : "down");
			calculator.put("grpcStatus", calculatorStatus);
			calculator.put("address", this.calculator.address());
			return result;
		});
	}

	private Mono<JsonNode> adminHealth() {
		return health(this.calculator.health()).map((health) -> {
			Runtime runtime = Runtime.getRuntime();
			ObjectNode jvm = ((ObjectNode) health).putObject("jvm");
			jvm.put("javaVersion", Runtime.version().toString());
			jvm.put("availableProcessors", runtime.availableProcessors());
			jvm.put("heapUsedBytes", runtime.totalMemory() - runtime.freeMemory());
			jvm.put("heapMaxBytes", runtime.maxMemory());
			jvm.put("threads", ManagementFactory.getThreadMXBean().getThreadCount());
			return health;
		});
	}

	private Mono<JsonNode> simulate(Arguments arguments) {
		long delayMs = arguments.has("delayMs") ? arguments.integer("delayMs")
				: this.properties.defaultSimulatedDelay().toMillis();
		long max = this.properties.maxSimulatedDelay().toMillis();
		if (delayMs < 0 || delayMs > max) {
			return Mono.error(Arguments.invalid("'delayMs' must be between 0 and " + max, "delayMs"));
		}
		return Mono.delay(Duration.ofMillis(delayMs)).map((tick) -> {
			ObjectNode result = JsonNodeFactory.instance.objectNode();
			result.put("message", "Simulated AI response after " + delayMs + " ms");
			result.put("delayMs", delayMs);
			result.put("timestamp", Instant.now().toString());
			return result;
		});
	}

	private static String version() {
		String version = GatewayApplication.class.getPackage().getImplementationVersion();
		return (version != null) ? version : "development";
	}

}
