package dev.junction.gateway.warmup;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import tools.jackson.databind.ObjectMapper;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Sends the gateway's own server the configured chat completions once it listens, varied
 * as clients' requests vary ({@link WarmUpRequests}), before the application reports
 * ready: Spring Boot's readiness state, and with it the health endpoint, stays
 * {@code OUT_OF_SERVICE} until its runners are done, so load balancers hold clients back
 * meanwhile. Failed requests do not stop the start: they are counted and the first one is
 * logged.
 */
public final class WarmUp implements ApplicationRunner, Ordered {

	private static final Logger logger = LoggerFactory.getLogger(WarmUp.class);

	private static final int LOGGED_BODY = 300;

	private final WarmUpProperties properties;

	private final Environment environment;

	private final ObjectMapper mapper;

	WarmUp(WarmUpProperties properties, Environment environment, ObjectMapper mapper) {
		this.properties = properties;
		this.environment = environment;
		this.mapper = mapper;
	}

	/** Before {@link ExitAfterStart}, and before runners that do not say. */
	@Override
	public int getOrder() {
		return 0;
	}

	@Override
	public void run(ApplicationArguments args) {
		String model = this.properties.model();
		if (model != null && !model.isBlank() && this.properties.requests() > 0) {
			warmUp(model);
		}
	}

	private void warmUp(String model) {
		int concurrency = this.properties.concurrency();
		ConnectionProvider connections = ConnectionProvider.builder("warm-up")
			.maxConnections(concurrency * WarmUpRequests.BURST)
			.build();
		try {
			long start = System.nanoTime();
			AtomicLong answered = new AtomicLong();
			AtomicLong failed = new AtomicLong();
			AtomicReference<String> firstFailure = new AtomicReference<>();
			HttpClient client = client(connections);
			Consumer<String> counted = (failure) -> {
				if (failure.isEmpty()) {
					answered.incrementAndGet();
				}
				else {
					failed.incrementAndGet();
					firstFailure.compareAndSet(null, failure);
				}
			};
			WarmUpRequests requests = new WarmUpRequests(model, this.mapper);
			int total = this.properties.requests();
			Duration limit = this.properties.maxDuration();
			Flux.range(0, (total + WarmUpRequests.RUN - 1) / WarmUpRequests.RUN).concatMap((run) -> {
				int from = run * WarmUpRequests.RUN;
				return Flux.range(from, Math.min(WarmUpRequests.RUN, total - from))
					.flatMap((i) -> send(client, requests.get(i)), WarmUpRequests.concurrency(from, concurrency));
			}).doOnNext(counted).take(limit).blockLast(limit.plusSeconds(5));
			Duration left = limit.minusNanos(System.nanoTime() - start);
			long sent = answered.get() + failed.get();
			// Only a path that answers is worth compiling: failures are logged below.
			if (this.properties.untilCompiled() && failed.get() == 0 && !left.isNegative() && !left.isZero()) {
				untilCompiled(client, requests, total, left, counted);
			}
			long settling = answered.get() + failed.get() - sent;
			long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
			if (failed.get() == 0) {
				logger.info("Warmed up in {} ms: {} requests to {} answered ({} of them while the JIT caught up)",
						millis, answered.get(), model, settling);
			}
			else {
				logger.warn("Warmed up in {} ms: of the requests to {}, {} answered and {} failed, the first with {}",
						millis, model, answered.get(), failed.get(), firstFailure.get());
			}
		}
		finally {
			connections.disposeLater().block(Duration.ofSeconds(5));
		}
	}

	/**
	 * Sends the requests from {@code from} on one at a time until the JIT has gone quiet,
	 * one fails or {@code limit} has passed.
	 */
	private void untilCompiled(HttpClient client, WarmUpRequests requests, int from, Duration limit,
			Consumer<String> counted) {
		JitActivity jit = JitActivity.start();
		if (jit == null) {
			return;
		}
		Flux.range(from, Integer.MAX_VALUE - from)
			.concatMap((i) -> send(client, requests.get(i)))
			.doOnNext(counted)
			// A failure ends it: a path that stops answering is not worth waiting for.
			.takeUntil((failure) -> !failure.isEmpty() || jit.quiet())
			.take(limit)
			.blockLast(limit.plusSeconds(5));
	}

	/** An empty string for a request answered 200, else what went wrong. */
	private Mono<String> send(HttpClient client, WarmUpRequests.Request request) {
		return client.post().uri("/v1/chat/completions").send((outbound, body) -> {
			request.headers().forEach(outbound::header);
			if (request.close()) {
				outbound.header(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
			}
			ByteBuf bytes = Unpooled.wrappedBuffer(request.body());
			// A single buffer goes with its length, a stream of them in chunks.
			return request.chunked() ? body.send(Flux.just(bytes)) : body.send(Mono.just(bytes));
		}).responseSingle((response, content) -> content.asString().defaultIfEmpty("").map((text) -> {
			int status = response.status().code();
			return (status == 200) ? "" : status + " " + abbreviate(text);
		})).onErrorResume((ex) -> Mono.just(ex.getClass().getSimpleName() + ": " + ex.getMessage()));
	}

	private HttpClient client(ConnectionProvider connections) {
		boolean secure = secure();
		String key = this.properties.key();
		HttpClient client = HttpClient.create(connections)
			.baseUrl((secure ? "https://" : "http://") + host() + ":"
					+ this.environment.getRequiredProperty("local.server.port"))
			.headers((headers) -> {
				headers.set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
				if (key != null && !key.isBlank()) {
					headers.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + key);
				}
			});
		// The gateway's own certificate, whatever signed it, on its own address.
		return secure ? client.secure((spec) -> spec.sslContext(Http11SslContextSpec.forClient()
			.configure((builder) -> builder.trustManager(InsecureTrustManagerFactory.INSTANCE)))) : client;
	}

	/**
	 * Whether the server speaks TLS: as {@code server.ssl.enabled} says, else (as Spring
	 * Boot reads it) whenever a bundle, key store or certificate is configured.
	 */
	private boolean secure() {
		Boolean enabled = this.environment.getProperty("server.ssl.enabled", Boolean.class);
		if (enabled != null) {
			return enabled;
		}
		return this.environment.containsProperty("server.ssl.bundle")
				|| this.environment.containsProperty("server.ssl.key-store")
				|| this.environment.containsProperty("server.ssl.certificate");
	}

	private String host() {
		String address = this.environment.getProperty("server.address");
		if (address == null || address.isBlank() || address.equals("0.0.0.0") || address.equals("::")) {
			return "127.0.0.1";
		}
		return address.contains(":") ? "[" + address + "]" : address;
	}

	private static String abbreviate(@Nullable String text) {
		if (text == null) {
			return "";
		}
		return (text.length() > LOGGED_BODY) ? text.substring(0, LOGGED_BODY) + "…" : text;
	}

}
