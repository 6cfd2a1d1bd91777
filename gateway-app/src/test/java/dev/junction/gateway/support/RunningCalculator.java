package dev.junction.gateway.support;

import java.util.ArrayList;
import java.util.List;

import dev.junction.calculator.CalculatorApplication;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

/**
 * The real calculator-service, in this JVM on random ports. Its {@code application.yaml}
 * is hidden behind the gateway's on the test classpath, so its defaults are given here.
 */
public final class RunningCalculator implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private RunningCalculator(ConfigurableApplicationContext context) {
		this.context = context;
	}

	/** Starts it with these {@code name=value} properties over the defaults. */
	public static RunningCalculator start(String... properties) {
		List<String> args = new ArrayList<>(List.of("--spring.config.name=calculator-service-test",
				"--spring.application.name=calculator-service", "--spring.main.banner-mode=off",
				"--spring.grpc.server.enabled=true", "--spring.grpc.server.port=0",
				// No HTTP server: closing it would dispose Reactor Netty's global event
				// loops, which
				// the gateway under test in this JVM is running on.
				"--spring.main.web-application-type=none", "--spring.grpc.server.health.enabled=true",
				"--spring.grpc.server.shutdown.grace-period=1s", "--junction.calculator.auth.mode=none",
				"--junction.calculator.executor.type=direct",
				// Its log pattern as in its application.yaml: when it starts first in a
				// JVM, its
				// pattern is the one every later application there logs with.
				"--logging.pattern.correlation=%replace([%X{traceId}-%X{spanId}] ){'^\\[-\\] $', ''}"
						+ "%replace(%kvp{NONE}){'^(.+)$', '[$1] '}"));
		for (String property : properties) {
			String name = property.substring(0, property.indexOf('=') + 1);
			args.removeIf((arg) -> arg.startsWith("--" + name));
			args.add("--" + property);
		}
		return new RunningCalculator(
				new SpringApplicationBuilder(CalculatorApplication.class).run(args.toArray(String[]::new)));
	}

	public int grpcPort() {
		return this.context.getBean(GrpcServerLifecycle.class).getPort();
	}

	/** The address the gateway is configured with. */
	public String address() {
		return "static://127.0.0.1:" + grpcPort();
	}

	@Override
	public void close() {
		this.context.close();
	}

}
