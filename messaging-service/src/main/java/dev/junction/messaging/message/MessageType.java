package dev.junction.messaging.message;

/** Kind of message content. */
public enum MessageType {

	TEXT, IMAGE, VIDEO, AUDIO, DOCUMENT, STICKER, LOCATION, CONTACT

}
