package dev.junction.messaging.message;

/** Delivery state of a message. */
public enum MessageStatus {

	PENDING, SENT, DELIVERED, READ, FAILED, RECEIVED

}
