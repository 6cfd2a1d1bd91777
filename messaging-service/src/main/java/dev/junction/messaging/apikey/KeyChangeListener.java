package dev.junction.messaging.apikey;

import java.util.UUID;

import dev.junction.database.ChannelListener;
import dev.junction.database.Notifications;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;

/**
 * On PostgreSQL, hears every key issued or revoked on any instance and applies it here at
 * once: the key is read again on its next use, and a revoked key's event streams end.
 * After a lost listening connection every cached key is forgotten, since changes may have
 * been missed meanwhile.
 */
@Component
class KeyChangeListener extends ChannelListener {

	private static final Logger logger = LoggerFactory.getLogger(KeyChangeListener.class);

	private final ApiKeyService apiKeys;

	KeyChangeListener(Notifications notifications, ApiKeyService apiKeys) {
		super(notifications, ApiKeyRepository.CHANNEL);
		this.apiKeys = apiKeys;
	}

	@Override
	protected Flux<Void> handle(Flux<String> signals) {
		return signals.concatMap(this::apply);
	}

	private Mono<Void> apply(String signal) {
		if (signal.equals(Notifications.CONNECTED)) {
			this.apiKeys.forgetAll();
			return Mono.empty();
		}
		UUID id;
		try {
			id = UUID.fromString(signal);
		}
		catch (IllegalArgumentException ex) {
			logger.warn("Key change notification without a key id ignored");
			return Mono.empty();
		}
		return this.apiKeys.changed(id).onErrorResume((ex) -> {
			logger.warn("Key change of {} not applied: {}; forgetting every cached key", id, ex.toString());
			this.apiKeys.forgetAll();
			return Mono.empty();
		});
	}

}
