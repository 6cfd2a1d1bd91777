package dev.junction.gateway.warmup;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;

/**
 * Ends the application once it has started and its other runners (the warm-up among them)
 * are done, when {@code junction.gateway.warm-up.then-exit} is true:
 * {@code bin/gateway}'s training run, whose JVM records at its exit the classes it loaded
 * and linked and, from JDK 25 on, the profiles of the warm-up's requests, so that a later
 * start maps them and its JIT compiles the request path from the first requests on.
 */
final class ExitAfterStart implements ApplicationRunner, Ordered {

	private static final Logger logger = LoggerFactory.getLogger(ExitAfterStart.class);

	private final ConfigurableApplicationContext context;

	ExitAfterStart(ConfigurableApplicationContext context) {
		this.context = context;
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public void run(ApplicationArguments args) {
		logger.info("Started; exiting, as {}.then-exit asks", WarmUpProperties.PREFIX);
		System.exit(SpringApplication.exit(this.context));
	}

}
