package dev.junction.messaging.seed;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.junction.messaging.common.RenamedMessagingProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.stereotype.Component;

/**
 * {@code java -jar messaging-service.jar --junction.messaging.seed.instances=10
 * --junction.messaging.seed.chats=1000 --junction.messaging.seed.messages=1000000}: fills
 * the database for benchmarks, then exits.
 */
@Component
public class SeedCommand implements ApplicationRunner {

	private static final Logger logger = LoggerFactory.getLogger(SeedCommand.class);

	private static final Duration LIMIT = Duration.ofHours(2);

	private final SeedProperties properties;

	private final Seeder seeder;

	private final ConfigurableApplicationContext context;

	SeedCommand(SeedProperties properties, Seeder seeder, ConfigurableApplicationContext context) {
		this.properties = properties;
		this.seeder = seeder;
		this.context = context;
	}

	/**
	 * Whether {@code argument} asks for seeding (under the current name or the former
	 * {@code --seed.*}).
	 */
	public static boolean isSeedArgument(String argument) {
		return argument.startsWith("--" + SeedProperties.PREFIX + ".")
				|| argument.startsWith("--" + RenamedMessagingProperties.FORMER_SEED_PREFIX + ".");
	}

	@Override
	public void run(ApplicationArguments args) {
		if (!this.properties.requested()) {
			return;
		}
		int exitCode = 0;
		try {
			// A command-line run on the main thread: nothing else runs here, so it waits
			// for the result.
			this.seeder.seed(this.properties).toFuture().get(LIMIT.toMinutes(), TimeUnit.MINUTES);
		}
		catch (Exception ex) {
			logger.error("Seeding failed", ex);
			exitCode = 1;
		}
		int code = exitCode;
		System.exit(SpringApplication.exit(this.context, () -> code));
	}

}
