package dev.junction.messaging.webhook;

/** Where a delivery stands. */
public enum DeliveryStatus {

	/** Not attempted yet. */
	PENDING,

	/** Failed at least once; another attempt is scheduled. */
	RETRYING,

	/** The receiver answered 2xx. */
	DELIVERED,

	/** Every attempt failed: a dead letter, which can be retried through the API. */
	DEAD,

	/**
	 * The subscription was paused before the delivery succeeded: no further attempt is
	 * made.
	 */
	CANCELLED

}
