/// Hand-written legacy payloads shaped like real Apple answers, with their quirks.
enum LegacyTestPayloads {
    /// A sandbox verifyReceipt answer: a monthly subscription with a free trial, two renewals, an
    /// upgrade (the upgraded period has `is_upgraded`), a refunded period, a pending downgrade
    /// (`auto_renew_product_id` ≠ `product_id`), rows in descending order, a numeric id and `""`
    /// for absent values.
    static let sandboxVerifyReceipt = """
    {
      "status": 0,
      "environment": "Sandbox",
      "receipt": {
        "receipt_type": "ProductionSandbox",
        "adam_id": 0,
        "app_item_id": 0,
        "bundle_id": "com.example.app",
        "application_version": "42",
        "download_id": 0,
        "version_external_identifier": 0,
        "receipt_creation_date": "2020-02-24 18:51:40 Etc/GMT",
        "receipt_creation_date_ms": "1582570300000",
        "receipt_creation_date_pst": "2020-02-24 10:51:40 America/Los_Angeles",
        "request_date": "2020-02-24 18:58:20 Etc/GMT",
        "request_date_ms": "1582570700000",
        "request_date_pst": "2020-02-24 10:58:20 America/Los_Angeles",
        "original_purchase_date": "2013-08-01 07:00:00 Etc/GMT",
        "original_purchase_date_ms": "1375340400000",
        "original_purchase_date_pst": "2013-08-01 00:00:00 America/Los_Angeles",
        "original_application_version": "1.0",
        "in_app": [
          {
            "quantity": "1",
            "product_id": "com.example.monthly",
            "transaction_id": "1000000746095599",
            "original_transaction_id": "1000000746095599",
            "purchase_date": "2020-02-24 18:34:56 Etc/GMT",
            "purchase_date_ms": "1582569296000",
            "purchase_date_pst": "2020-02-24 10:34:56 America/Los_Angeles",
            "original_purchase_date": "2020-02-24 18:34:56 Etc/GMT",
            "original_purchase_date_ms": "1582569296000",
            "original_purchase_date_pst": "2020-02-24 10:34:56 America/Los_Angeles",
            "expires_date": "2020-02-24 18:39:56 Etc/GMT",
            "expires_date_ms": "1582569596000",
            "expires_date_pst": "2020-02-24 10:39:56 America/Los_Angeles",
            "web_order_line_item_id": "1000000050500001",
            "is_trial_period": "true",
            "is_in_intro_offer_period": "false"
          }
        ]
      },
      "latest_receipt_info": [
        {
          "quantity": "1",
          "product_id": "com.example.monthly.pro",
          "transaction_id": "1000000746103000",
          "original_transaction_id": "1000000746095599",
          "purchase_date": "2020-02-24 18:51:40 Etc/GMT",
          "purchase_date_ms": "1582570300000",
          "purchase_date_pst": "2020-02-24 10:51:40 America/Los_Angeles",
          "original_purchase_date": "2020-02-24 18:34:56 Etc/GMT",
          "original_purchase_date_ms": "1582569296000",
          "original_purchase_date_pst": "2020-02-24 10:34:56 America/Los_Angeles",
          "expires_date": "2020-02-24 18:56:40 Etc/GMT",
          "expires_date_ms": "1582570600000",
          "expires_date_pst": "2020-02-24 10:56:40 America/Los_Angeles",
          "cancellation_date": "2020-02-24 18:53:20 Etc/GMT",
          "cancellation_date_ms": "1582570400000",
          "cancellation_date_pst": "2020-02-24 10:53:20 America/Los_Angeles",
          "cancellation_reason": "1",
          "web_order_line_item_id": "1000000050500005",
          "is_trial_period": "false",
          "is_in_intro_offer_period": "false",
          "in_app_ownership_type": "PURCHASED",
          "subscription_group_identifier": "20537620"
        },
        {
          "quantity": "1",
          "product_id": "com.example.monthly.pro",
          "transaction_id": "1000000746102000",
          "original_transaction_id": 1000000746095599,
          "purchase_date": "2020-02-24 18:46:40 Etc/GMT",
          "purchase_date_ms": "1582570000000",
          "purchase_date_pst": "2020-02-24 10:46:40 America/Los_Angeles",
          "original_purchase_date": "2020-02-24 18:34:56 Etc/GMT",
          "original_purchase_date_ms": "1582569296000",
          "original_purchase_date_pst": "2020-02-24 10:34:56 America/Los_Angeles",
          "expires_date": "2020-02-24 18:51:40 Etc/GMT",
          "expires_date_ms": "1582570300000",
          "expires_date_pst": "2020-02-24 10:51:40 America/Los_Angeles",
          "web_order_line_item_id": "1000000050500004",
          "is_trial_period": "false",
          "is_in_intro_offer_period": "false",
          "in_app_ownership_type": "PURCHASED",
          "subscription_group_identifier": "20537620"
        },
        {
          "quantity": "1",
          "product_id": "com.example.monthly",
          "transaction_id": "1000000746101234",
          "original_transaction_id": "1000000746095599",
          "purchase_date": "2020-02-24 18:44:56 Etc/GMT",
          "purchase_date_ms": "1582569896000",
          "purchase_date_pst": "2020-02-24 10:44:56 America/Los_Angeles",
          "original_purchase_date": "2020-02-24 18:34:56 Etc/GMT",
          "original_purchase_date_ms": "1582569296000",
          "original_purchase_date_pst": "2020-02-24 10:34:56 America/Los_Angeles",
          "expires_date": "2020-02-24 18:49:56 Etc/GMT",
          "expires_date_ms": "1582570196000",
          "expires_date_pst": "2020-02-24 10:49:56 America/Los_Angeles",
          "web_order_line_item_id": "1000000050500003",
          "is_trial_period": "false",
          "is_in_intro_offer_period": "false",
          "is_upgraded": "true",
          "in_app_ownership_type": "PURCHASED",
          "subscription_group_identifier": "20537620"
        },
        {
          "quantity": "1",
          "product_id": "com.example.monthly",
          "transaction_id": "1000000746099001",
          "original_transaction_id": "1000000746095599",
          "purchase_date": "2020-02-24 18:39:56 Etc/GMT",
          "purchase_date_ms": "1582569596000",
          "purchase_date_pst": "2020-02-24 10:39:56 America/Los_Angeles",
          "original_purchase_date": "2020-02-24 18:34:56 Etc/GMT",
          "original_purchase_date_ms": "1582569296000",
          "original_purchase_date_pst": "2020-02-24 10:34:56 America/Los_Angeles",
          "expires_date": "2020-02-24 18:44:56 Etc/GMT",
          "expires_date_ms": "1582569896000",
          "expires_date_pst": "2020-02-24 10:44:56 America/Los_Angeles",
          "web_order_line_item_id": "1000000050500002",
          "is_trial_period": "false",
          "is_in_intro_offer_period": "false",
          "in_app_ownership_type": "PURCHASED",
          "subscription_group_identifier": "20537620",
          "app_account_token": "7e3fb20b-4cdb-47cc-936d-99d65f608138"
        },
        {
          "quantity": "1",
          "product_id": "com.example.monthly",
          "transaction_id": "1000000746095599",
          "original_transaction_id": "1000000746095599",
          "purchase_date": "2020-02-24 18:34:56 Etc/GMT",
          "purchase_date_ms": "1582569296000",
          "purchase_date_pst": "2020-02-24 10:34:56 America/Los_Angeles",
          "original_purchase_date": "2020-02-24 18:34:56 Etc/GMT",
          "original_purchase_date_ms": "1582569296000",
          "original_purchase_date_pst": "2020-02-24 10:34:56 America/Los_Angeles",
          "expires_date": "2020-02-24 18:39:56 Etc/GMT",
          "expires_date_ms": "1582569596000",
          "expires_date_pst": "2020-02-24 10:39:56 America/Los_Angeles",
          "web_order_line_item_id": "1000000050500001",
          "is_trial_period": "true",
          "is_in_intro_offer_period": "false",
          "in_app_ownership_type": "PURCHASED",
          "subscription_group_identifier": "20537620"
        }
      ],
      "latest_receipt": "MIIT1QYJKoZIhvcNAQcCoIITxjCCE8ICAQExCzAJBgUrDgMCGgUA",
      "pending_renewal_info": [
        {
          "auto_renew_product_id": "com.example.monthly",
          "product_id": "com.example.monthly.pro",
          "original_transaction_id": "1000000746095599",
          "auto_renew_status": "1",
          "expiration_intent": "",
          "is_in_billing_retry_period": "0",
          "price_consent_status": "0"
        }
      ]
    }
    """

    /// An iOS 6-style answer for an expired subscription: status 21006, `latest_receipt_info` and
    /// `latest_expired_receipt_info` as single objects whose `expires_date` is milliseconds, the
    /// renewal facts at the top level (`auto_renew_status` a number) and no `environment`.
    static let iOS6ExpiredVerifyReceipt = """
    {
      "status": 21006,
      "receipt": {
        "original_purchase_date_pst": "2012-10-02 09:00:00 America/Los_Angeles",
        "original_purchase_date_ms": "1349193600000",
        "original_purchase_date": "2012-10-02 16:00:00 Etc/GMT",
        "original_transaction_id": "1000000056012345",
        "transaction_id": "1000000056019999",
        "purchase_date": "2012-10-02 16:30:00 Etc/GMT",
        "purchase_date_ms": "1349195400000",
        "purchase_date_pst": "2012-10-02 09:30:00 America/Los_Angeles",
        "quantity": "1",
        "product_id": "com.example.weekly",
        "item_id": "567890123",
        "bid": "com.example.legacyapp",
        "bvrs": "1.4",
        "unique_identifier": "0000b0090000",
        "expires_date": "1349195580000",
        "expires_date_formatted": "2012-10-02 16:33:00 Etc/GMT",
        "expires_date_formatted_pst": "2012-10-02 09:33:00 America/Los_Angeles",
        "web_order_line_item_id": "1000000000123456",
        "app_item_id": 567890123,
        "version_external_identifier": 12345
      },
      "latest_receipt": "ewoJInNpZ25hdHVyZSIgPSAi",
      "latest_receipt_info": {
        "original_purchase_date_ms": "1349193600000",
        "original_transaction_id": "1000000056012345",
        "transaction_id": "1000000056019999",
        "purchase_date_ms": "1349195400000",
        "quantity": "1",
        "product_id": "com.example.weekly",
        "item_id": "567890123",
        "bid": "com.example.legacyapp",
        "bvrs": "1.4",
        "expires_date": "1349195580000",
        "expires_date_formatted": "2012-10-02 16:33:00 Etc/GMT",
        "web_order_line_item_id": "1000000000123456",
        "is_trial_period": "false"
      },
      "latest_expired_receipt_info": {
        "original_purchase_date_ms": "1349193600000",
        "original_transaction_id": "1000000056012345",
        "transaction_id": "1000000056019999",
        "purchase_date_ms": "1349195400000",
        "quantity": "1",
        "product_id": "com.example.weekly",
        "bid": "com.example.legacyapp",
        "expires_date": "1349195580000",
        "expires_date_formatted": "2012-10-02 16:33:00 Etc/GMT",
        "web_order_line_item_id": "1000000000123456"
      },
      "auto_renew_status": 0,
      "auto_renew_product_id": "com.example.weekly",
      "expiration_intent": "1",
      "is_in_billing_retry_period": "0"
    }
    """

    /// A current V1 notification: production (`PROD` outside, `Production` inside the unified
    /// receipt), auto-renew turned off, a renewal row with an offer code and an unknown
    /// cancellation reason and expiration intent.
    static let v1AutoRenewOff = """
    {
      "notification_type": "DID_CHANGE_RENEWAL_STATUS",
      "password": "0123456789abcdef0123456789abcdef",
      "environment": "PROD",
      "auto_renew_adam_id": "1491234567",
      "auto_renew_product_id": "com.example.yearly",
      "auto_renew_status": "false",
      "auto_renew_status_change_date": "2021-06-01 12:00:00 Etc/GMT",
      "auto_renew_status_change_date_ms": "1622548800000",
      "auto_renew_status_change_date_pst": "2021-06-01 05:00:00 America/Los_Angeles",
      "bid": "com.example.app",
      "bvrs": "310",
      "unified_receipt": {
        "status": 0,
        "environment": "Production",
        "latest_receipt": "MIIUhQYJKoZIhvcNAQcCoIIUdjCCFHICAQExCzAJBgUrDgMCGgUA",
        "latest_receipt_info": [
          {
            "quantity": "1",
            "product_id": "com.example.yearly",
            "transaction_id": "290000987654321",
            "original_transaction_id": "290000900000001",
            "purchase_date": "2021-05-01 09:00:00 Etc/GMT",
            "purchase_date_ms": "1619859600000",
            "original_purchase_date_ms": "1588323600000",
            "expires_date": "2022-05-01 09:00:00 Etc/GMT",
            "expires_date_ms": "1651395600000",
            "web_order_line_item_id": "290000055500002",
            "is_trial_period": "false",
            "is_in_intro_offer_period": "false",
            "offer_code_ref_name": "SPRING21",
            "in_app_ownership_type": "FAMILY_SHARED",
            "subscription_group_identifier": "1234567"
          },
          {
            "quantity": "1",
            "product_id": "com.example.yearly",
            "transaction_id": "290000900000001",
            "original_transaction_id": "290000900000001",
            "purchase_date_ms": "1588323600000",
            "original_purchase_date_ms": "1588323600000",
            "expires_date_ms": "1619859600000",
            "web_order_line_item_id": "290000055500001",
            "is_trial_period": "false",
            "is_in_intro_offer_period": "true",
            "cancellation_date_ms": "1590000000000",
            "cancellation_reason": "2",
            "in_app_ownership_type": "FAMILY_SHARED",
            "subscription_group_identifier": "1234567"
          }
        ],
        "pending_renewal_info": [
          {
            "auto_renew_product_id": "com.example.yearly",
            "original_transaction_id": "290000900000001",
            "product_id": "com.example.yearly",
            "auto_renew_status": "0",
            "expiration_intent": "6",
            "grace_period_expires_date_ms": "",
            "price_increase_status": "1"
          }
        ]
      }
    }
    """

    /// A pre-2021 V1 CANCEL notification: no `unified_receipt`, the cancelled period as a top-level
    /// iOS 6-style object, the cancellation and renewal facts at the top level.
    static let v1Pre2021Cancel = """
    {
      "notification_type": "CANCEL",
      "password": "0123456789abcdef0123456789abcdef",
      "environment": "Sandbox",
      "auto_renew_product_id": "com.example.monthly",
      "auto_renew_status": "false",
      "bid": "com.example.app",
      "bvrs": "12",
      "original_transaction_id": 1000000640000001,
      "cancellation_date": "2019-03-05 10:02:00 Etc/GMT",
      "cancellation_date_ms": "1551780120000",
      "web_order_line_item_id": "1000000043000002",
      "latest_receipt": "ewoJInNpZ25hdHVyZSIgPSAi",
      "latest_receipt_info": {
        "original_purchase_date_ms": "1551779100000",
        "original_transaction_id": "1000000640000001",
        "transaction_id": "1000000640000777",
        "purchase_date_ms": "1551779400000",
        "quantity": "1",
        "product_id": "com.example.monthly",
        "item_id": "1451234567",
        "bid": "com.example.app",
        "bvrs": "12",
        "expires_date": "1551779700000",
        "expires_date_formatted": "2019-03-05 09:55:00 Etc/GMT",
        "expires_date_formatted_pst": "2019-03-05 01:55:00 America/Los_Angeles",
        "web_order_line_item_id": "1000000043000002",
        "is_trial_period": "false",
        "is_in_intro_offer_period": "false",
        "unique_identifier": "00008020-000123456789",
        "unique_vendor_identifier": "6C2A2E4A-1B1C-4E57-9C2A-3C2B1A0F9D11"
      }
    }
    """
}
