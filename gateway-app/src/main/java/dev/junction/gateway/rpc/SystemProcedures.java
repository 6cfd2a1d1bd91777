package dev.junction.gateway.rpc;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.junction.gateway.GatewayApplication;
import dev.junction.gateway.calculator.CalculatorClient;
import dev.junction.gateway.calculator.LazyCalculator;
import dev.junction.gateway.provider.ProviderHealth;
import dev.junction.gateway.provider.ProviderRegistry;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * {@code system.health}, {@code admin.healthCheck}, {@code admin.status} and
 * {@code test.simulateAI}.
 */
public final class SystemProcedures {

	static final String VERSION = version();

	private static final String DEFAULT_MESSAGE = "Test message";

	private static final String REDIS_UP = "up";

	/**
	 * How old the Redis status in {@code system.health} may be before it is checked
	 * again, in the background.
	 */
	private static final Duration REDIS_STATUS_REFRESH = Duration.ofSeconds(1);

	/** How old it may be before a call waits for a fresh one (after a quiet spell). */
	private static final Duration REDIS_STATUS_EXPIRY = Duration.ofSeconds(10);

	private final ProviderRegistry providers;

	private final LazyCalculator calculator;

	private final RpcProperties properties;

	private final ReactiveHealthIndicator redis;

	private final long startNanos = System.nanoTime();

	private final AsyncLoadingCache<String, Optional<String>> redisStatuses = Caffeine.newBuilder()
		.executor(Runnable::run)
		.refreshAfterWrite(REDIS_STATUS_REFRESH)
		.expireAfterWrite(REDIS_STATUS_EXPIRY)
		.buildAsync((key, executor) -> redisStatus().toFuture());

	/**
	 * @param redis the {@code redis} health indicator, or null when Redis is not
	 * configured
	 */
	public SystemProcedures(ProviderRegistry providers, LazyCalculator calculator, RpcProperties properties,
			ReactiveHealthIndicator redis) {
		this.providers = providers;
		this.calculator = calculator;
		this.properties = properties;
		this.redis = redis;
	}

	public List<Procedure> procedures() {
		ObjectNode health = Schemas.object("status", "string", "uptime", "number", "version", "string", "timestamp",
				"string", "dependencies", "object");
		long max = this.properties.maxSimulatedDelay().toMillis();
		String delay = "Milliseconds to wait (default " + this.properties.defaultSimulatedDelay().toMillis()
				+ ", at most " + max + ")";
		return List.of(Procedure.of("system.health",
				"'healthy' or 'degraded', uptime and version, and the state of the providers, the calculator and Redis.",
				Procedure.Type.QUERY, List.of(), health,
				(arguments, call) -> health(this.calculator.with(CalculatorClient::cachedHealth), cachedRedisStatus())),
				new Procedure("admin.healthCheck",
						"system.health with a fresh calculator check, a check per service and JVM details; needs an admin key.",
						Procedure.Type.QUERY, true, false, List.of(), health, (arguments, call) -> healthCheck()),
				new Procedure("admin.status",
						"Status, uptime and heap use, with runtime details when 'detailed'; needs an admin key.",
						Procedure.Type.QUERY, true, false,
						List.of(Param.optional("detailed", "boolean", "Include the runtime's details")),
						Schemas.object("status", "string", "uptime", "integer", "memory", "object", "timestamp",
								"string"),
						(arguments, call) -> status(arguments.bool("detailed", false))),
				Procedure.of("test.simulateAI",
						"Answers after a delay, as a slow model would, without holding a thread.",
						Procedure.Type.MUTATION_OR_QUERY,
						List.of(Param.optional("delayMs", "integer", delay).between(0, max),
								Param.optional("delay", "integer", delay + "; the same as delayMs").between(0, max),
								Param.optional("message", "string", "Echoed back (default '" + DEFAULT_MESSAGE + "')")),
						Schemas.object("success", "boolean", "message", "string", "simulatedDelay", "integer",
								"actualDelay", "integer", "delayMs", "integer", "timestamp", "string"),
						(arguments, call) -> simulate(arguments)));
	}

	private Mono<JsonNode> health(Mono<String> calculatorHealth, Mono<Optional<String>> redisHealth) {
		return Mono.zip(calculatorHealth, redisHealth).map((statuses) -> {
			String calculatorStatus = statuses.getT1();
			Optional<String> redisStatus = statuses.getT2();
			boolean serving = "SERVING".equals(calculatorStatus);
			ProviderHealth providerHealth = ProviderHealth.of(this.providers);
			boolean healthy = serving && ProviderHealth.UP.equals(providerHealth.status())
					&& redisStatus.map(REDIS_UP::equals).orElse(true);
			ObjectNode result = JsonNodeFactory.instance.objectNode();
			result.put("status", healthy ? "healthy" : "degraded");
			result.put("timestamp", Instant.now().toString());
			result.put("uptime", uptimeSeconds());
			result.put("version", VERSION);
			ObjectNode dependencies = result.putObject("dependencies");
			ObjectNode providers = dependencies.putObject("providers");
			providers.put("status", providerHealth.status());
			this.providers.names().forEach(providers.putArray("configured")::add);
			providers.set("keys", providerHealth.keys());
			ObjectNode calculator = dependencies.putObject("calculator");
			calculator.put("status",
					serving ? "up" : CalculatorClient.CONNECTING.equals(calculatorStatus) ? "connecting" : "down");
			calculator.put("grpcStatus", calculatorStatus);
			calculator.put("address", this.calculator.address());
			redisStatus.ifPresent((status) -> dependencies.putObject("redis").put("status", status));
			return result;
		});
	}

	/**
	 * {@link #redisStatus()} as last checked: a status older than
	 * {@link #REDIS_STATUS_REFRESH} is answered while a new check runs, so that frequent
	 * health calls neither wait for Redis nor ping it each.
	 */
	private Mono<Optional<String>> cachedRedisStatus() {
		return (this.redis != null) ? Mono.fromFuture(this.redisStatuses.get("redis"), true)
				: Mono.just(Optional.empty());
	}

	/**
	 * The {@code redis} indicator's status, as {@code /actuator/health} reports it; empty
	 * when not configured.
	 */
	private Mono<Optional<String>> redisStatus() {
		if (this.redis == null) {
			return Mono.just(Optional.empty());
		}
		return this.redis.health()
			.map((health) -> Status.UP.equals(health.getStatus()) ? REDIS_UP : "degraded")
			.defaultIfEmpty("degraded")
			.onErrorReturn("degraded")
			.map(Optional::of);
	}

	private Mono<JsonNode> healthCheck() {
		return health(this.calculator.with(CalculatorClient::health), redisStatus()).map((health) -> {
			ObjectNode result = (ObjectNode) health;
			ObjectNode checks = result.putObject("checks");
			checks.put("server", "healthy");
			checks.put("calculator",
					result.at("/dependencies/calculator/status").stringValue().equals("up") ? "healthy" : "unhealthy");
			checks.put("ai", result.at("/dependencies/providers/status").stringValue().equals(ProviderHealth.UP)
					? "healthy" : "unhealthy");
			if (result.at("/dependencies").has("redis")) {
				checks.put("redis", result.at("/dependencies/redis/status").stringValue().equals(REDIS_UP) ? "healthy"
						: "unhealthy");
			}
			checks.put("auth", "enabled");
			result.put("allHealthy", checks.valueStream()
				.allMatch((check) -> check.stringValue().equals("healthy") || check.stringValue().equals("enabled")));
			Runtime runtime = Runtime.getRuntime();
			ObjectNode jvm = result.putObject("jvm");
			jvm.put("javaVersion", Runtime.version().toString());
			jvm.put("availableProcessors", runtime.availableProcessors());
			jvm.put("heapUsedBytes", runtime.totalMemory() - runtime.freeMemory());
			jvm.put("heapMaxBytes", runtime.maxMemory());
			jvm.put("threads", ManagementFactory.getThreadMXBean().getThreadCount());
			return result;
		});
	}

	private Mono<JsonNode> status(boolean detailed) {
		Runtime runtime = Runtime.getRuntime();
		long total = runtime.totalMemory();
		long used = total - runtime.freeMemory();
		ObjectNode result = JsonNodeFactory.instance.objectNode();
		result.put("status", "healthy");
		result.put("uptime", (long) uptimeSeconds());
		result.putObject("memory")
			.put("used", used)
			.put("total", total)
			.put("percentage", Math.round(100.0 * used / total));
		if (detailed) {
			result.putObject("system")
				.put("platform", System.getProperty("os.name"))
				.put("arch", System.getProperty("os.arch"))
				.put("javaVersion", Runtime.version().toString());
		}
		result.put("timestamp", Instant.now().toString());
		return Mono.just(result);
	}

	private Mono<JsonNode> simulate(Arguments arguments) {
		if (arguments.has("delay") && arguments.has("delayMs")) {
			return Mono.error(Arguments.invalid("give 'delay' or 'delayMs', not both", "delay"));
		}
		String name = arguments.has("delay") ? "delay" : "delayMs";
		long delayMs = arguments.has(name) ? arguments.integer(name)
				: this.properties.defaultSimulatedDelay().toMillis();
		String message = arguments.string("message", DEFAULT_MESSAGE);
		long start = System.nanoTime();
		return Mono.delay(Duration.ofMillis(delayMs)).map((tick) -> {
			ObjectNode result = JsonNodeFactory.instance.objectNode();
			result.put("success", true);
			result.put("message", message);
			result.put("simulatedDelay", delayMs);
			result.put("actualDelay", Math.round((System.nanoTime() - start) / 1e6));
			result.put("delayMs", delayMs);
			result.put("timestamp", Instant.now().toString());
			return result;
		});
	}

	private double uptimeSeconds() {
		return (System.nanoTime() - this.startNanos) / 1e9;
	}

	private static String version() {
		String version = GatewayApplication.class.getPackage().getImplementationVersion();
		return (version != null) ? version : "development";
	}

}
