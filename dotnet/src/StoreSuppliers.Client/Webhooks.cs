using System;
using System.Collections.Generic;
using System.Linq;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;

namespace StoreSuppliers;

/// <summary>Why a delivery did not verify.</summary>
public enum WebhookVerificationFailure
{
    /// <summary>webhook-id, webhook-timestamp or webhook-signature is missing.</summary>
    MissingHeaders,
    /// <summary>The timestamp is too far from now: a delayed or replayed delivery.</summary>
    TimestampOutOfRange,
    /// <summary>No v1 signature matches the body under the secret.</summary>
    InvalidSignature,
    /// <summary>The secret is not a signing secret (whsec_ and base64).</summary>
    InvalidSecret,
    /// <summary>The body is signed but is not an event.</summary>
    InvalidBody,
}

/// <summary>A delivery that failed verification; <see cref="Reason"/> says which check.</summary>
public sealed class WebhookVerificationException : StoreException
{
    internal WebhookVerificationException(WebhookVerificationFailure reason, string message) : base(message) => Reason = reason;

    /// <summary>Which check failed.</summary>
    public WebhookVerificationFailure Reason { get; }
}

/// <summary>An event as the service delivers it: <c>{ id, type, createdAt, storeId, data }</c>.</summary>
public sealed class WebhookEvent
{
    internal WebhookEvent(string id, string type, DateTimeOffset createdAt, string storeId, JsonElement data)
    {
        Id = id;
        Type = type;
        CreatedAt = createdAt;
        StoreId = storeId;
        Data = data;
    }

    /// <summary>The event's id, also its webhook-id: the same on every attempt (the receiver's idempotency key).</summary>
    public string Id { get; }

    /// <summary>The event type, such as <c>supplierOrder.paused</c>.</summary>
    public string Type { get; }

    /// <summary>When the change was written.</summary>
    public DateTimeOffset CreatedAt { get; }

    /// <summary>The store it happened in.</summary>
    public string StoreId { get; }

    /// <summary>The resource as the API answers it to the subscription's owner.</summary>
    public JsonElement Data { get; }
}

/// <summary>Checks deliveries of the service's events (Standard Webhooks): <c>Webhooks.Verify(rawBody, headers, secret)</c>.</summary>
public static class Webhooks
{
    private const string Prefix = "whsec_";

    /// <summary>
    /// Verifies a delivery before its body is read: the three headers present, the timestamp within
    /// <paramref name="toleranceSeconds"/> of now, and one of the <c>v1,</c> signatures an HMAC-SHA256 of
    /// <c>id.timestamp.body</c> under the secret (compared in constant time). Pass the raw body exactly as received.
    /// Answers the event; throws <see cref="WebhookVerificationException"/> otherwise.
    /// </summary>
    public static WebhookEvent Verify(string rawBody, IEnumerable<KeyValuePair<string, string>> headers, string secret, DateTimeOffset? now = null, int toleranceSeconds = 300)
    {
        if (rawBody is null) throw new ArgumentNullException(nameof(rawBody));
        var byName = (headers ?? throw new ArgumentNullException(nameof(headers))).ToLookup(h => h.Key.ToLowerInvariant(), h => h.Value);
        string? Header(string name) => byName[name].FirstOrDefault();
        var id = Header("webhook-id");
        var timestamp = Header("webhook-timestamp");
        var signatures = Header("webhook-signature");
        if (string.IsNullOrEmpty(id) || string.IsNullOrEmpty(timestamp) || string.IsNullOrEmpty(signatures))
            throw new WebhookVerificationException(WebhookVerificationFailure.MissingHeaders, "The webhook-id, webhook-timestamp and webhook-signature headers are required.");
        var at = (now ?? DateTimeOffset.UtcNow).ToUnixTimeSeconds();
        if (!timestamp!.All(char.IsDigit) || !long.TryParse(timestamp, out var seconds) || Math.Abs(at - seconds) > toleranceSeconds)
            throw new WebhookVerificationException(WebhookVerificationFailure.TimestampOutOfRange, "The webhook-timestamp is too far from now: a delayed or replayed delivery.");
        byte[] key;
        try
        {
            key = Convert.FromBase64String(secret.StartsWith(Prefix, StringComparison.Ordinal) ? secret.Substring(Prefix.Length) : secret);
        }
        catch (FormatException)
        {
            throw new WebhookVerificationException(WebhookVerificationFailure.InvalidSecret, "The secret is not a signing secret (whsec_ and base64).");
        }
        byte[] expected;
        using (var hmac = new HMACSHA256(key)) expected = hmac.ComputeHash(Encoding.UTF8.GetBytes($"{id}.{timestamp}.{rawBody}"));
        foreach (var candidate in signatures!.Split(' '))
        {
            var comma = candidate.IndexOf(',');
            if (comma < 0 || candidate.Substring(0, comma) != "v1") continue;
            byte[] given;
            try
            {
                given = Convert.FromBase64String(candidate.Substring(comma + 1));
            }
            catch (FormatException)
            {
                continue;
            }
            if (FixedTimeEquals(given, expected)) return Parse(rawBody);
        }
        throw new WebhookVerificationException(WebhookVerificationFailure.InvalidSignature, "No signature matches: the body or headers were changed, or the secret is not this subscription's.");
    }

    private static bool FixedTimeEquals(byte[] a, byte[] b)
    {
        if (a.Length != b.Length) return false;
        var diff = 0;
        for (var i = 0; i < a.Length; i++) diff |= a[i] ^ b[i];
        return diff == 0;
    }

    private static WebhookEvent Parse(string rawBody)
    {
        try
        {
            using var doc = JsonDocument.Parse(rawBody);
            var root = doc.RootElement;
            return new WebhookEvent(
                root.GetProperty("id").GetString()!,
                root.GetProperty("type").GetString()!,
                root.GetProperty("createdAt").GetDateTimeOffset(),
                root.GetProperty("storeId").GetString()!,
                root.TryGetProperty("data", out var data) ? data.Clone() : default);
        }
        catch (Exception e) when (e is JsonException || e is KeyNotFoundException || e is InvalidOperationException || e is FormatException)
        {
            throw new WebhookVerificationException(WebhookVerificationFailure.InvalidBody, "The body is signed but is not an event.");
        }
    }
}
