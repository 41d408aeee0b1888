using System.Security.Cryptography;
using System.Text;

namespace StoreSuppliers.Tests;

/// <summary>Webhooks.Verify against deliveries signed as the service signs them (Standard Webhooks).</summary>
public sealed class WebhookTests
{
    private static readonly string Secret = "whsec_" + Convert.ToBase64String(Enumerable.Range(1, 32).Select(i => (byte)i).ToArray());
    private const string Body = """{"id":"5f0c2d8e-7f3a-4a51-9d3e-2b8f1c0a9e11","type":"supplierOrder.paused","createdAt":"2026-11-25T02:00:00.000Z","storeId":"0b1d6a9e-1c2f-4e3a-8b7c-6d5e4f3a2b1c","data":{"status":"needsReview","reviewReason":"insufficientBalance"}}""";

    private static Dictionary<string, string> Signed(string body, string secret, DateTimeOffset at, string id = "5f0c2d8e-7f3a-4a51-9d3e-2b8f1c0a9e11")
    {
        var ts = at.ToUnixTimeSeconds().ToString();
        using var hmac = new HMACSHA256(Convert.FromBase64String(secret.Substring("whsec_".Length)));
        var sig = Convert.ToBase64String(hmac.ComputeHash(Encoding.UTF8.GetBytes($"{id}.{ts}.{body}")));
        return new() { ["Webhook-Id"] = id, ["webhook-timestamp"] = ts, ["webhook-signature"] = $"v1,{sig}" };
    }

    [Fact]
    public void A_good_signature_answers_the_event()
    {
        var e = Webhooks.Verify(Body, Signed(Body, Secret, DateTimeOffset.UtcNow), Secret);
        Assert.Equal("supplierOrder.paused", e.Type);
        Assert.Equal("insufficientBalance", e.Data.GetProperty("reviewReason").GetString());
    }

    [Fact]
    public void A_delivery_signed_by_the_service_verifies()
    {
        // Headers from the service's own signing (server/events/signing.ts webhookHeaders) for Body at 1795485600.
        var headers = new Dictionary<string, string>
        {
            ["webhook-id"] = "5f0c2d8e-7f3a-4a51-9d3e-2b8f1c0a9e11",
            ["webhook-timestamp"] = "1795485600",
            ["webhook-signature"] = "v1,UeiMVVrMuCbNo5bwUwTLyCj2XoGUtdnzQFMxXU6J5QY=",
        };
        var at = DateTimeOffset.FromUnixTimeSeconds(1795485600);
        Assert.Equal("0b1d6a9e-1c2f-4e3a-8b7c-6d5e4f3a2b1c", Webhooks.Verify(Body, headers, Secret, at).StoreId);
        Assert.Throws<WebhookVerificationException>(() => Webhooks.Verify(Body + " ", headers, Secret, at));
    }

    [Fact]
    public void One_matching_signature_among_several_is_enough()
    {
        var headers = Signed(Body, Secret, DateTimeOffset.UtcNow);
        headers["webhook-signature"] = "v1,AAAA " + headers["webhook-signature"];
        Assert.Equal("supplierOrder.paused", Webhooks.Verify(Body, headers, Secret).Type);
    }

    [Fact]
    public void A_bad_signature_a_changed_body_or_another_secret_is_refused()
    {
        var headers = Signed(Body, Secret, DateTimeOffset.UtcNow);
        var other = "whsec_" + Convert.ToBase64String(new byte[32]);
        Assert.Equal(WebhookVerificationFailure.InvalidSignature, Assert.Throws<WebhookVerificationException>(() => Webhooks.Verify(Body.Replace("insufficientBalance", "costChanged"), headers, Secret)).Reason);
        Assert.Equal(WebhookVerificationFailure.InvalidSignature, Assert.Throws<WebhookVerificationException>(() => Webhooks.Verify(Body, headers, other)).Reason);
        headers["webhook-signature"] = "v1,bm90IHRoZSBzaWduYXR1cmU=";
        Assert.Equal(WebhookVerificationFailure.InvalidSignature, Assert.Throws<WebhookVerificationException>(() => Webhooks.Verify(Body, headers, Secret)).Reason);
    }

    [Fact]
    public void An_old_timestamp_or_a_missing_header_is_refused()
    {
        var old = Signed(Body, Secret, DateTimeOffset.UtcNow.AddMinutes(-10));
        Assert.Equal(WebhookVerificationFailure.TimestampOutOfRange, Assert.Throws<WebhookVerificationException>(() => Webhooks.Verify(Body, old, Secret)).Reason);
        var missing = Signed(Body, Secret, DateTimeOffset.UtcNow);
        missing.Remove("Webhook-Id");
        Assert.Equal(WebhookVerificationFailure.MissingHeaders, Assert.Throws<WebhookVerificationException>(() => Webhooks.Verify(Body, missing, Secret)).Reason);
    }
}
