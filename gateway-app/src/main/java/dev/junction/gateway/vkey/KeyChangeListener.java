package dev.junction.gateway.vkey;

import java.time.Duration;

import dev.junction.database.ChannelListener;
import dev.junction.database.Notifications;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;

/**
 * On PostgreSQL, listens on {@link KeyStore#CHANNEL} and drops every key another instance
 * (or this one) writes from the {@link KeyCache}. The cache is trusted from the moment
 * the channel is listened to, and distrusted (flushed, every lookup read from the
 * database) from the moment the connection is lost until it is listened to again, so no
 * change goes unheard. Nothing to do on H2: this instance makes every change.
 */
public final class KeyChangeListener extends ChannelListener {

	/** The {@code application_name} of the listening connection. */
	public static final String APPLICATION_NAME = "junction-gateway-listener";

	/**
	 * How often the idle listening connection is checked, so a half-open one is replaced.
	 */
	static final Duration CHECK_INTERVAL = Duration.ofSeconds(5);

	private static final Logger logger = LoggerFactory.getLogger(KeyChangeListener.class);

	private final KeyCache cache;

	/**
	 * @param notifications the key database's notifications ({@link Notifications#none()}
	 * on H2)
	 * @param cache the cache to keep up to date
	 */
	public KeyChangeListener(Notifications notifications, KeyCache cache) {
		super(notifications, KeyStore.CHANNEL);
		this.cache = cache;
	}

	@Override
	protected Flux<String> handle(Flux<String> signals) {
		// Notifications are subscribed to before CONNECTED arrives, so none is missed
		// once trusted.
		return signals.doOnNext((signal) -> {
			if (signal.equals(Notifications.CONNECTED)) {
				this.cache.trust();
			}
			else {
				this.cache.invalidate(signal);
			}
		});
	}

	@Override
	protected void lost(Throwable ex) {
		if (this.cache.trusted()) {
			logger
				.warn("Virtual key changes may go unheard: every key is read from the database until listening again");
		}
		this.cache.distrust();
	}

}
