package dev.junction.messaging.apikey;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.junction.messaging.common.MessagingProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;

/**
 * Makes sure an admin key exists before the server accepts requests: the configured
 * {@code junction.messaging.admin-key}, or, when none is configured and the database has
 * no usable admin key for every instance, a random one logged once.
 */
@Component
class AdminKeyBootstrap implements SmartInitializingSingleton {

	private static final Logger logger = LoggerFactory.getLogger(AdminKeyBootstrap.class);

	private static final Duration STARTUP_WAIT = Duration.ofMinutes(1);

	private final ApiKeyService service;

	private final MessagingProperties properties;

	AdminKeyBootstrap(ApiKeyService service, MessagingProperties properties) {
		this.service = service;
		this.properties = properties;
	}

	@Override
	public void afterSingletonsInstantiated() {
		// Start-up runs on the main thread, before the web server opens: waiting here
		// keeps
		// requests from arriving before the admin key exists, and blocks no event loop.
		bootstrap().toFuture().orTimeout(STARTUP_WAIT.toSeconds(), TimeUnit.SECONDS).join();
	}

	Mono<Void> bootstrap() {
		Set<Scope> admin = EnumSet.of(Scope.ADMIN);
		String configured = this.properties.adminKey();
		if (StringUtils.hasText(configured)) {
			return this.service.findRaw(configured).flatMap((existing) -> {
				if (existing.isPresent()) {
					if (!existing.get().active()) {
						logger.warn("The configured {}.admin-key has been revoked and no longer works",
								MessagingProperties.PREFIX);
					}
					return Mono.empty();
				}
				return this.service.store("admin (configuration)", configured, admin, Set.of(), null)
					.doOnNext((key) -> logger.info("Admin API key from configuration registered ({}...)",
							key.keyPrefix()))
					.onErrorResume(DuplicateKeyException.class, (ex) -> Mono.empty())
					.then();
			});
		}
		return this.service.unrestrictedAdminExists().flatMap((exists) -> {
			if (exists) {
				return Mono.empty();
			}
			return this.service.issue("admin (generated)", admin, Set.of(), null)
				.doOnNext((issued) -> logger.warn(
						"No {}.admin-key configured: generated admin API key {} (shown once; set the property to choose one)",
						MessagingProperties.PREFIX, issued.rawKey()))
				.then();
		});
	}

}
